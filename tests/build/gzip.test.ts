/**
 * A gzip file put together from parts compressed apart (build/outputs/gzip.ts) must be one that every
 * reader takes: Node's zlib, and the system's gzip, which checks its checksum and length.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { checksums, deflatePart, gzipOf } from "../../build/outputs/gzip.ts";
import { hashRuns, hashRunsAside } from "../../build/threads/hashing.ts";
import { strongEtag } from "../../core/dist/etag.ts";
import { tempDir } from "../../harness/data.ts";
import { runCommand } from "../helpers/run.ts";

const texts = [
  "",
  '{"head":1,"reviews":[\n',
  "x".repeat(70_000),
  "",
  JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: `r-${i}`, text: `Review ${i}: “curly” ü` }))),
  ",\n",
  "\n]}\n",
];

describe("a gzip file made of parts", () => {
  it("reads back as the data, with Node's zlib and with the system's gzip", async () => {
    const parts = await Promise.all(texts.map((t, i) => deflatePart(t, i === texts.length - 1)));
    const data = Buffer.from(texts.join(""));
    const gz = Buffer.concat(gzipOf(parts, (await checksums([data])).crc, data.length));
    expect(gunzipSync(gz).equals(data)).toBe(true);
    const file = join(await tempDir(), "data.json.gz");
    await writeFile(file, gz);
    execFileSync("gzip", ["-t", file]);
    expect(execFileSync("gzip", ["-dc", file]).equals(data)).toBe(true);
  });

  it("is refused by gzip when its checksum is not the data's", async () => {
    const parts = await Promise.all(["one, ", "two"].map((t, i) => deflatePart(t, i === 1)));
    const file = join(await tempDir(), "wrong.gz");
    await writeFile(file, Buffer.concat(gzipOf(parts, (await checksums([Buffer.from("one, twO")])).crc, 8)));
    expect(() => execFileSync("gzip", ["-t", file], { stdio: "pipe" })).toThrow();
  });

  it("has the same checksums whether they are computed on another thread (a large file of few runs, partly in shared memory) or here", async () => {
    const shared = Buffer.from(new SharedArrayBuffer(9 << 20)).fill("[1,2],");
    const runs = [Buffer.from('{"a":['), shared, Buffer.alloc(9 << 20, "3,"), Buffer.from("4]}")];
    const size = runs.reduce((n, run) => n + run.length, 0);
    const whole = Buffer.concat(runs);
    const sums = await checksums(runs);
    expect(sums.etag).toBe(strongEtag(whole));
    // gunzip checks the CRC in the trailer.
    expect(gunzipSync(Buffer.concat(gzipOf([await deflatePart(whole, true)], sums.crc, size))).equals(whole)).toBe(true);
    // The hashing thread's hashes are this thread's, with the CRC or without, one call after another.
    const [aside, bare] = await Promise.all([hashRunsAside(runs, true), hashRunsAside([whole.subarray(5)], false)]);
    expect(aside).toEqual(hashRuns(runs, true));
    expect(bare).toEqual({ sha256: hashRuns([whole.subarray(5)], false).sha256 });
  });

  it("keeps no process alive by its hashing thread: a process that used it ends by itself", async () => {
    const script = `import { hashRunsAside } from "./build/threads/hashing.ts"; console.log((await hashRunsAside([Buffer.from("x")], false)).sha256);`;
    const run = await runCommand("timeout", ["60", "node", "--import", "tsx", "--input-type=module", "-e", script]);
    expect(run).toMatchObject({ code: 0, stdout: `${hashRuns([Buffer.from("x")], false).sha256}\n` });
  });
});
