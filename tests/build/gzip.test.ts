/**
 * A gzip file put together from parts compressed apart (build/gzip.ts) must be one that every
 * reader takes: Node's zlib, and the system's gzip, which checks its checksum and length.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { checksums, checksumsHere, deflatePart, gzipOf } from "../../build/gzip.ts";
import { strongEtag } from "../../core/dist/etag.ts";
import { tempDir } from "../helpers/data.ts";

const texts = ["", '{"head":1,"reviews":[\n', "x".repeat(70_000), "", JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: `r-${i}`, text: `Review ${i}: “curly” ü` }))), ",\n", "\n]}\n"];

describe("a gzip file made of parts", () => {
  it("reads back as the data, with Node's zlib and with the system's gzip", async () => {
    const parts = await Promise.all(texts.map((t, i) => deflatePart(t, i === texts.length - 1)));
    const data = Buffer.from(texts.join(""));
    const gz = Buffer.concat(gzipOf(parts, checksumsHere([data]).crc, data.length));
    expect(gunzipSync(gz).equals(data)).toBe(true);
    const file = join(await tempDir(), "data.json.gz");
    await writeFile(file, gz);
    execFileSync("gzip", ["-t", file]);
    expect(execFileSync("gzip", ["-dc", file]).equals(data)).toBe(true);
  });

  it("is refused by gzip when its checksum is not the data's", async () => {
    const parts = await Promise.all(["one, ", "two"].map((t, i) => deflatePart(t, i === 1)));
    const file = join(await tempDir(), "wrong.gz");
    await writeFile(file, Buffer.concat(gzipOf(parts, checksumsHere([Buffer.from("one, twO")]).crc, 8)));
    expect(() => execFileSync("gzip", ["-t", file], { stdio: "pipe" })).toThrow();
  });

  it("has the same checksums whether they are computed on another thread (a large file of few runs, partly in shared memory) or here", async () => {
    const shared = Buffer.from(new SharedArrayBuffer(9 << 20)).fill("[1,2],");
    const runs = [Buffer.from("{\"a\":["), shared, Buffer.alloc(9 << 20, "3,"), Buffer.from("4]}")];
    const size = runs.reduce((n, run) => n + run.length, 0);
    const whole = Buffer.concat(runs);
    const here = checksumsHere(runs);
    expect(here.etag).toBe(strongEtag(whole));
    // gunzip checks the CRC in the trailer.
    expect(gunzipSync(Buffer.concat(gzipOf([await deflatePart(whole, true)], here.crc, size))).equals(whole)).toBe(true);
    expect(await checksums(runs, size)).toEqual(here);
  });
});
