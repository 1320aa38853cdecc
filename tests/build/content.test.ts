/** A large file's content as runs of bytes (build/outputs/content.ts): written and compressed as the bytes they make. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { piecesOf, writeContent } from "../../build/outputs/content.ts";
import { removeDir, tempDir } from "../../harness/data.ts";

/** Runs as a JSON file's are: many small ones (a thousand more than one write takes), a few of megabytes, some empty. */
function runs(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < 3_000; i++) out.push(Buffer.from(`{"item":${i},"text":"é${"x".repeat(i % 97)}"},`));
  out.splice(1_200, 0, Buffer.alloc(3 << 20, "a"), new Uint8Array(0));
  out.splice(2_500, 0, Buffer.alloc(9 << 20, "b"));
  out.push(Buffer.from("end"));
  return out;
}

describe("a file's content as runs", () => {
  it("is written as the bytes the runs make, in order, however many there are", async () => {
    const dir = await tempDir();
    try {
      const content = runs();
      await writeContent(join(dir, "file.json"), content);
      expect((await readFile(join(dir, "file.json"))).equals(Buffer.concat(content))).toBe(true);
      // Written over a longer file, nothing of it is left.
      await writeContent(join(dir, "file.json"), Buffer.from("short"));
      expect(await readFile(join(dir, "file.json"), "utf8")).toBe("short");
    } finally {
      await removeDir(dir);
    }
  });

  it("is compressed in pieces that make the same bytes, its large runs not copied and few pieces for its small ones", () => {
    const content = runs();
    const pieces = [...piecesOf(content)];
    expect(Buffer.concat(pieces).equals(Buffer.concat(content))).toBe(true);
    // The runs of megabytes are the pieces themselves (the same memory), not copies.
    const large = content.filter((r) => r.length >= 1 << 20);
    for (const run of large) expect(pieces).toContain(run);
    // The 3,000 small runs gathered: a piece before, between and after the large ones.
    expect(pieces.length).toBeLessThanOrEqual(large.length + 3);
  });
});
