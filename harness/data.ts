/** Small data folders for tests: a valid one to start from, and ways to break it. */
import { createHash } from "node:crypto";
import { cpSync, existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Review } from "../core/schema/records.ts";

export const REPO_DATA = new URL("../data/", import.meta.url).pathname;

export async function tempDir(prefix = "reviewcast-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * The build cache of this test process's builds of data/ and its copies, one for each model that
 * reads them: their reviews' mentions are read once, where each build without one reads them all
 * again with the aspect model. It starts as a copy of the cache the
 * suite's first build left (the folder in SEED_CACHE's variable: tests/helpers/seed-cache.ts).
 * Builds of other folders keep out of it, so none replaces data/'s mentions there. A cache never
 * changes what a build writes (tests/build/incremental.test.ts).
 */
const dataAndCopies = new Set([resolve(REPO_DATA)]);
export const SEED_CACHE = "REVIEWCAST_TEST_DATA_CACHE";

/** The cache a test's build of `dataDir` with `env` uses unless the test names one: one of its own for data/ and its copies. */
export function cacheFor(dataDir: string, env: Record<string, string> = {}): string | undefined {
  if (!dataAndCopies.has(resolve(dataDir))) return undefined;
  const model = env.INSIGHTS_MODEL ?? "learned";
  const seed = process.env[SEED_CACHE];
  const dir = join(seed ? dirname(seed) : tmpdir(), `reviewcast-data-cache-${process.pid}-${model}`);
  if (model === "learned" && seed && !existsSync(dir)) cpSync(seed, dir, { recursive: true });
  return dir;
}

/** A copy of the repository's data/ in a fresh folder, to change without touching the real one. */
export async function copyOfRepoData(): Promise<string> {
  const dir = await tempDir();
  await cp(REPO_DATA, join(dir, "data"), { recursive: true, filter: (src) => !src.includes("/schema") });
  dataAndCopies.add(resolve(dir, "data"));
  return join(dir, "data");
}

export function review(overrides: Partial<Review> & Record<string, unknown> = {}): Review {
  return {
    id: "r-1",
    date: "2025-03-01",
    rating: 5,
    author: "Maria G.",
    text: "Dana was on time and the ants are gone.",
    technicians: ["dana-whitfield"],
    services: ["ant-control"],
    service_area: "roseville",
    ...overrides,
  } as Review;
}

/** A minimal valid data folder: two technicians, three services, two areas, the reviews given. */
export async function smallData(reviews: unknown[] = [review()], extra: Record<string, string> = {}): Promise<string> {
  const dir = await tempDir();
  const files: Record<string, string> = {
    "business.json": JSON.stringify({
      name: "Test Pest Co",
      description: "A test business.",
      telephone: "+1-916-555-0100",
      email: "office@test.example",
      address: { street: "1 Main St", locality: "Roseville", region: "CA", postal_code: "95678", country: "US" },
      opening_hours: [{ days: ["Mo"], opens: "08:00", closes: "17:00" }],
      updated: "2024-01-01T00:00:00Z",
    }),
    "services.json": JSON.stringify([
      { id: "ant-control", name: "Ant control", description: "Ants." },
      { id: "rodent-control", name: "Rodent control", description: "Mice and rats." },
      { id: "termite-inspection", name: "Termite inspection", description: "WDO reports." },
    ]),
    "technicians.json": JSON.stringify([
      { id: "dana-whitfield", name: "Dana Whitfield" },
      { id: "marco-ruiz", name: "Marco Ruiz" },
    ]),
    "service-areas.json": JSON.stringify([
      { id: "roseville", name: "Roseville" },
      { id: "rocklin", name: "Rocklin" },
    ]),
    "reviews/2025.jsonl": reviews.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n",
    ...extra,
  };
  await mkdir(join(dir, "reviews"));
  await Promise.all(Object.entries(files).map(([name, text]) => writeFile(join(dir, name), text)));
  return dir;
}

/** Rewrite one review line, found by id, in a JSON Lines file. */
export async function editReview(file: string, id: string, change: (r: Review) => Review): Promise<void> {
  const lines = (await readFile(file, "utf8")).split("\n");
  const i = lines.findIndex((l) => l.includes(`"id":"${id}"`) || l.includes(`"id": "${id}"`));
  if (i < 0) throw new Error(`no review ${id} in ${file}`);
  lines[i] = JSON.stringify(change(JSON.parse(lines[i]!)));
  await writeFile(file, lines.join("\n"));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Every file under `dir`, by path, with a hash of its bytes: two folders compared byte for byte. */
export async function tree(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const e of entries.filter((e) => e.isFile())) {
    const path = join(e.parentPath, e.name);
    files[path.slice(dir.length + 1)] = createHash("sha1")
      .update(await readFile(path))
      .digest("hex");
  }
  return files;
}

/**
 * The build's settings for synthetic data in the tests of its workings (caching, memory, scale):
 * the linear model alone judges the mentions, much faster than with the encoder, whose own
 * tests build the business's data (tests/sentiment/, tests/build/cache.test.ts).
 */
export const SYNTHETIC: Record<string, string> = { INSIGHTS_MODEL: "linear" };
