/** The pages' script, bundled by esbuild into dist/assets/. */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildCache } from "../cache/cache.ts";

/** The pages' script (site/scripts/*.ts), bundled and minified into assets/; kept in the cache by its code's version. */
export async function bundleScripts(dir: string, cache?: BuildCache): Promise<void> {
  const store = cache?.store<Record<string, Uint8Array>>("script");
  const kept = await store?.get();
  const files =
    kept ??
    Object.fromEntries(
      // Imported only when the script is not kept: a rebuild does not load esbuild.
      (
        await (
          await import("esbuild")
        ).build({
          entryPoints: [fileURLToPath(new URL("../../site/scripts/reviews.ts", import.meta.url))],
          outdir: join(dir, "assets"),
          bundle: true,
          minify: true,
          format: "esm",
          target: "es2020",
          logLevel: "error",
          write: false,
        })
      ).outputFiles.map((f) => [relative(dir, f.path), f.contents]),
    );
  for (const [file, contents] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), contents);
  }
  if (!kept) store?.set(files);
}
