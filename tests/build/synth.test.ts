import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadData } from "../../build/load/load.ts";
import { tempDir } from "../../harness/data.ts";
import { runScript } from "../helpers/run.ts";

async function synth(reviews: number, seed: string): Promise<string> {
  const out = join(await tempDir(), "data");
  const run = await runScript("build/synth/index.ts", ["--reviews", String(reviews), "--seed", seed, "--out", out]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe("");
  return out;
}

async function contents(dir: string): Promise<string> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const texts = await Promise.all(files.map(async (e) => `${e.name}\n${await readFile(join(e.parentPath, e.name), "utf8")}`));
  return texts.sort().join("\n");
}

describe("npm run synth", () => {
  it("writes a data folder the build accepts, in the same layout as data/", async () => {
    const dir = await synth(3000, "layout");
    const data = await loadData(dir);
    expect(data.reviews.length + data.withdrawn.length).toBe(3000);
    expect(data.technicians.length).toBeGreaterThan(10);
    expect(data.serviceAreas.length).toBeGreaterThan(10);
    expect((await readdir(join(dir, "reviews"))).every((f) => /^\d{4}\.jsonl$/.test(f))).toBe(true);
  });

  it("writes the same bytes for the same seed, and other data for another", async () => {
    const [a, b, c] = await Promise.all([synth(500, "same"), synth(500, "same"), synth(500, "other")]);
    expect(await contents(a)).toBe(await contents(b));
    expect(await contents(a)).not.toBe(await contents(c));
  });

  it("varies the text the way real reviews vary: ratings skewed, many phrasings, mixed feelings", async () => {
    const data = await loadData(await synth(5000, "variety"));
    const reviews = data.reviews;
    const share = (star: number) => reviews.filter((r) => r.rating === star).length / reviews.length;
    expect(share(5)).toBeGreaterThan(0.55);
    expect(share(1)).toBeGreaterThan(share(2));
    expect(new Set(reviews.map((r) => r.text)).size / reviews.length).toBeGreaterThan(0.95);
    const words = new Set(reviews.flatMap((r) => r.text.toLowerCase().match(/[a-z]+/g) ?? []));
    expect(words.size).toBeGreaterThan(400);
    expect(reviews.some((r) => /\b(but|although|though|however)\b/i.test(r.text) && r.rating >= 3)).toBe(true);
    expect(data.withdrawn.length).toBeGreaterThan(0);
    expect(reviews.filter((r) => r.response).length).toBeGreaterThan(0);
    expect(new Set(reviews.map((r) => r.date.slice(0, 4))).size).toBeGreaterThanOrEqual(4);
  });

  it("refuses a --reviews that is not a whole number", async () => {
    const run = await runScript("build/synth/index.ts", ["--reviews", "lots", "--out", join(await tempDir(), "x")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--reviews: expected a whole number/);
  });
});
