/**
 * A gzip file put together from parts compressed apart (build/gzip.ts) must be one that every
 * reader takes: Node's zlib, and the system's gzip, which checks its checksum and length.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflatePart, gzipOf } from "../../build/gzip.ts";
import { tempDir } from "../helpers/data.ts";

const texts = ["", '{"head":1,"reviews":[\n', "x".repeat(70_000), "", JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: `r-${i}`, text: `Review ${i}: “curly” ü` }))), ",\n", "\n]}\n"];

describe("a gzip file made of parts", () => {
  it("reads back as the data, with Node's zlib and with the system's gzip", async () => {
    const parts = await Promise.all(texts.map((t, i) => deflatePart(t, i === texts.length - 1)));
    const data = Buffer.from(texts.join(""));
    const gz = Buffer.concat(gzipOf(parts, data));
    expect(gunzipSync(gz).equals(data)).toBe(true);
    const file = join(await tempDir(), "data.json.gz");
    await writeFile(file, gz);
    execFileSync("gzip", ["-t", file]);
    expect(execFileSync("gzip", ["-dc", file]).equals(data)).toBe(true);
  });

  it("is refused by gzip when its checksum is not the data's", async () => {
    const parts = await Promise.all(["one, ", "two"].map((t, i) => deflatePart(t, i === 1)));
    const file = join(await tempDir(), "wrong.gz");
    await writeFile(file, Buffer.concat(gzipOf(parts, Buffer.from("one, twO"))));
    expect(() => execFileSync("gzip", ["-t", file], { stdio: "pipe" })).toThrow();
  });
});
