/**
 * The manifest's files given to it as the build wrote them (build/outputs/manifest.ts): their ETag
 * and compressed copies must be those of the bytes, and a kept copy must hold those bytes exactly,
 * no fewer and no more.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ManifestWriter } from "../../build/outputs/manifest.ts";
import { BuildCache } from "../../build/cache/cache.ts";
import { strongEtag } from "../../core/dist/etag.ts";
import { tempDir } from "../../harness/data.ts";

const input = { baseUrl: "https://reviews.example", updated: "2026-01-01T00:00:00Z", withdrawn: [], lastModified: {} };

/** A reviews.json of 8,000 reviews. */
function reviewsJson(): Buffer {
  const reviews = Array.from({ length: 8000 }, (_, j) => JSON.stringify({ id: `r-${j}`, text: `Review “${j}”` }));
  return Buffer.from(`{"reviews":[\n${reviews.join(",\n")}\n]}\n`);
}

afterEach(() => vi.restoreAllMocks());

describe("a file given to the manifest", () => {
  it("is described and compressed as its bytes", async () => {
    const dir = await tempDir();
    const data = reviewsJson();
    const whole = data;
    await writeFile(join(dir, "reviews.json"), whole);
    const writer = new ManifestWriter(dir);
    writer.start("reviews.json", { data });
    const { files } = await writer.write(input);
    const entry = files["/reviews.json"]!;
    expect(entry.etag).toBe(strongEtag(whole));
    expect(entry.bytes).toBe(whole.length);
    const gz = await readFile(join(dir, "reviews.json.gz"));
    const br = await readFile(join(dir, "reviews.json.br"));
    expect(gunzipSync(gz).equals(whole)).toBe(true);
    expect(brotliDecompressSync(br).equals(whole)).toBe(true);
    expect([entry.encodings.gzip?.bytes, entry.encodings.br?.bytes]).toEqual([gz.length, br.length]);
  });

  it("gets no kept copy that holds more or fewer bytes than the file: it is made again, with a line saying so", async () => {
    const [dir, cacheDir] = [await tempDir(), await tempDir()];
    const data = reviewsJson();
    const whole = data;
    await writeFile(join(dir, "reviews.json"), whole);
    const cache = await BuildCache.open(cacheDir);
    // The file's bytes and then more (a copy that would decompress to far more stops at the first
    // byte too many), and the file's bytes less its last.
    const etag = strongEtag(whole);
    await writeFile(cache.copies()!.path(etag, ".gz"), gzipSync(Buffer.concat([whole, Buffer.alloc(1_000_000, 32)])));
    await writeFile(cache.copies()!.path(etag, ".br"), brotliCompressSync(whole.subarray(0, -1)));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const writer = new ManifestWriter(dir, cache);
    writer.start("reviews.json", { data });
    await writer.write(input);
    await cache.settled();
    expect(gunzipSync(await readFile(join(dir, "reviews.json.gz"))).equals(whole)).toBe(true);
    expect(brotliDecompressSync(await readFile(join(dir, "reviews.json.br"))).equals(whole)).toBe(true);
    expect(warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("does not hold what it stands for"))).toHaveLength(
      2,
    );
    // Kept again, right this time: the next build takes them.
    warn.mockClear();
    const next = new ManifestWriter(dir, cache);
    next.start("reviews.json", { data });
    await next.write(input);
    expect(warn).not.toHaveBeenCalled();
    expect(gunzipSync(await readFile(cache.copies()!.path(etag, ".gz"))).equals(whole)).toBe(true);
  });

  it("has a gzip copy only when it is huge (over 10 MB), the brotli copy costing more at each build than it saves", async () => {
    const dir = await tempDir();
    const line = (i: number) =>
      JSON.stringify({ id: `r-${i}`, text: `Review ${i}: the ${["ants", "wasps", "mice"][i % 3]} were gone in ${i % 17} days.` });
    const data = Buffer.from(`[\n${Array.from({ length: 160_000 }, (_, i) => line(i)).join(",\n")}\n]\n`);
    const whole = data;
    expect(whole.length).toBeGreaterThan(10_000_000);
    await writeFile(join(dir, "reviews.json"), whole);
    const writer = new ManifestWriter(dir);
    writer.start("reviews.json", { data });
    const entry = (await writer.write(input)).files["/reviews.json"]!;
    expect(Object.keys(entry.encodings)).toEqual(["gzip"]);
    expect(gunzipSync(await readFile(join(dir, "reviews.json.gz"))).equals(whole)).toBe(true);
    await expect(readFile(join(dir, "reviews.json.br"))).rejects.toThrow(/ENOENT/);
  });
});
