/**
 * The review files' hashes (build/cache/lines.ts): a file that grew by lines added after a kept
 * one's last line is read from there on (build/load/load.ts); any other change reads it whole.
 */
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashFile } from "../../build/cache/lines.ts";
import { tempDir } from "../../harness/data.ts";

const sha1 = (text: string) => createHash("sha1").update(text).digest("base64");

/** `hashFile` of a file holding `now`, given the kept file `before`. */
async function hashed(before: string, now: string) {
  const path = join(await tempDir(), "reviews.jsonl");
  await writeFile(path, now);
  return hashFile(path, Buffer.byteLength(before), sha1(before));
}

describe("a review file's hash", () => {
  it("is the SHA-1 of its bytes, with its size", async () => {
    const now = '{"id":"a"}\n{"id":"b"}\n';
    expect(await hashed("", now)).toEqual({ file: sha1(now), size: Buffer.byteLength(now), grew: false });
  });

  it("says the file grew when lines were added after the kept file's last line", async () => {
    expect((await hashed('{"id":"a"}\n', '{"id":"a"}\n{"id":"b"}\n')).grew).toBe(true);
    // A line break written differently is not the same line: the kept file ended with \r\n.
    expect((await hashed('{"id":"a"}\r\n', '{"id":"a"}\r\n{"id":"b"}\n')).grew).toBe(true);
  });

  it("says it did not grow when the kept file's last line was continued, or an earlier byte changed", async () => {
    // No line break at the kept file's end: its last line is now another line.
    expect((await hashed('{"id":"a"}\n{"id":"b"', '{"id":"a"}\n{"id":"b","x":1}\n')).grew).toBe(false);
    expect((await hashed('{"id":"a"}\n{"id":"b"}\n', '{"id":"A"}\n{"id":"b"}\n{"id":"c"}\n')).grew).toBe(false);
    // The same file, and a shorter one.
    expect((await hashed('{"id":"a"}\n', '{"id":"a"}\n')).grew).toBe(false);
    expect((await hashed('{"id":"a"}\n{"id":"b"}\n', '{"id":"a"}\n')).grew).toBe(false);
  });

  it("tells growth when the kept file ends exactly where a piece it is read in does (4 MiB)", async () => {
    const line = `${"x".repeat(63)}\n`;
    const before = line.repeat((4 * 1024 * 1024) / 64);
    const now = `${before}${line}`;
    expect(await hashed(before, now)).toEqual({ file: sha1(now), size: now.length, grew: true });
    expect((await hashed(before, `${before.slice(0, -2)}y\n${line}`)).grew).toBe(false);
  });
});
