/** The previous dist/ removed (build/outputs/remove.ts): everything in it, nothing outside it. */
import { existsSync } from "node:fs";
import { mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { removeTree } from "../../build/outputs/remove.ts";
import { removeDir, tempDir } from "../../harness/data.ts";

describe("removing a folder", () => {
  it("removes every file and folder in it, more than one batch of them, and follows no link out of it", async () => {
    const root = await tempDir();
    try {
      const target = join(root, "dist");
      const outside = join(root, "outside");
      await mkdir(join(target, "reviews"), { recursive: true });
      await mkdir(join(target, "api", "deep", "er"), { recursive: true });
      await mkdir(outside);
      await writeFile(join(outside, "keep.txt"), "kept");
      for (let i = 0; i < 3_000; i++) await writeFile(join(target, "reviews", `r-${i}.html`), "<p>page</p>");
      await writeFile(join(target, "api", "deep", "er", "feed.json"), "{}");
      await symlink(outside, join(target, "link-to-outside"));
      await symlink(join(outside, "keep.txt"), join(target, "api", "link-to-file"));
      removeTree(target);
      expect(existsSync(target)).toBe(false);
      expect(await readdir(outside)).toEqual(["keep.txt"]);
    } finally {
      await removeDir(root);
    }
  });

  it("does nothing when the folder is not there, and removes a file given in its place", async () => {
    const root = await tempDir();
    try {
      expect(() => removeTree(join(root, "missing"))).not.toThrow();
      await writeFile(join(root, "file"), "x");
      removeTree(join(root, "file"));
      expect(existsSync(join(root, "file"))).toBe(false);
    } finally {
      await removeDir(root);
    }
  });
});
