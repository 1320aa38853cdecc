/**
 * Which code made each kind of output the build's cache keeps (build/cache/cache.ts): a version
 * per kind, a hash of its entry modules, every module they import and the files they read, so that
 * a change to the code makes stale only what that code makes.
 */
import { hash } from "node:crypto";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { COMPILED } from "../compiled.ts";
import { replaceWhole } from "./file.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The files the language analysis reads beside its code: the models and the tables of words. */
const WORD_TABLES = [
  "model.json",
  "model.weights",
  "clusters.json",
  "lexicon.json",
  "aspects.json",
  "phrases.json",
  "languages.json",
  "encoder/encoder.json",
  "encoder/model.onnx",
  "encoder/vocab.txt",
  "aspect-model/aspect-model.json",
  "aspect-model/model.onnx",
].map((f) => `insights/sentiment/${f}`);

/**
 * What each kind of output the cache keeps is made from: its entries, with every module they
 * import (as esbuild's metafile lists them: type-only imports drop out, packages count through the
 * lockfile), and files read at run time or that use only part of what they import. A change to
 * any of them makes that output's cached copies stale and leaves the others. The lockfile counts
 * for all (Eleventy's or esbuild's version changes bytes too), and so does Node's version (its
 * zlib and brotli make the compressed copies, its V8 the model's arithmetic).
 */
export const CODE: Record<Kind, { entries: string[]; files?: string[] }> = {
  /** Each text's aspect mentions; the model's weights are a file, read at run time. */
  analysis: {
    entries: ["build/outputs/mentions.ts"],
    files: [...WORD_TABLES],
  },
  /** A review's page from its public record (build/render/pages.ts, which writes the files, counts alone). */
  pages: { entries: ["views/review-page.ts"], files: ["build/render/pages.ts"] },
  /** The pages' script, bundled. */
  script: { entries: ["site/scripts/reviews.ts", "build/render/script.ts"] },
  /** A file's compressed copies, from its bytes. */
  compression: { entries: ["build/outputs/manifest.ts"] },
};

export type Kind = "analysis" | "pages" | "script" | "compression";
export type Versions = Record<Kind, string>;

/** The modules each entry imports, from the project's root, as esbuild bundles them (without writing). */
export async function modulesOf(entries: readonly string[]): Promise<Map<string, string[]>> {
  // Imported when asked for: the versions are kept (below), and a rebuild does not load esbuild.
  const result = await (
    await import("esbuild")
  ).build({
    entryPoints: entries.map((e) => join(ROOT, e)),
    absWorkingDir: ROOT,
    outdir: join(ROOT, "node_modules/.cache/reviewcast/modules"),
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  return new Map(
    Object.values(result.metafile.outputs).flatMap((o) => (o.entryPoint ? [[o.entryPoint, Object.keys(o.inputs)] as const] : [])),
  );
}

/**
 * The versions of the code, kept in the compiled folder once computed (esbuild's bundling would
 * otherwise cost every build): that folder is made from the same files (scripts/run.mjs),
 * so they cannot differ while it stands. From source, computed at every build.
 */
export async function codeVersions(): Promise<Versions> {
  const kept = COMPILED && new URL(`code-versions-${process.version}.json`, COMPILED);
  if (kept) {
    try {
      const read = JSON.parse(readFileSync(kept, "utf8")) as Versions;
      if (Object.keys(CODE).every((kind) => typeof read[kind as Kind] === "string")) return read;
    } catch {
      // Not computed yet with this Node.
    }
  }
  const versions = await versionsOfCode();
  if (kept) await replaceWhole(fileURLToPath(kept), (temporary) => writeFile(temporary, JSON.stringify(versions)));
  return versions;
}

/** The version of each kind of output's code: a hash of its modules and files (each read once), the lockfile and Node's version. */
async function versionsOfCode(): Promise<Versions> {
  const modules = await modulesOf([...new Set(Object.values(CODE).flatMap((c) => c.entries))]);
  const digests = new Map<string, string>();
  const digest = (file: string) => digests.get(file) ?? digests.set(file, hash("sha1", readFileSync(join(ROOT, file)))).get(file)!;
  const shared = [hash("sha1", readFileSync(join(ROOT, "package-lock.json"))), process.version];
  const version = ({ entries, files = [] }: { entries: string[]; files?: string[] }) => {
    const all = [...new Set([...entries.flatMap((e) => modules.get(e) ?? [e]), ...files])].sort();
    return hash("sha1", [...all.map((file) => `${file} ${digest(file)}`), ...shared].join("\n"));
  };
  return Object.fromEntries(Object.entries(CODE).map(([kind, code]) => [kind, version(code)])) as Versions;
}
