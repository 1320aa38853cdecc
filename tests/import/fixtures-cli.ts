/**
 * What tests/import/fixtures.test.ts drives and reads: `npm run import` and `npm run build` on a
 * copy of the fixtures' business, its data folder's review lines, and every byte the import and
 * the build leave where a customer's contact details must not go.
 */
import { existsSync, readFileSync } from "node:fs";
import { cp, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect } from "vitest";
import { SYNTHETIC, tempDir } from "../../harness/data.ts";
import { startSidecar } from "../../harness/sidecar.ts";
import { runBuild, runCommand, type Run } from "../helpers/run.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

/** A fixture file's path. */
export const fixture = (name: string) => join(FIXTURES, name);

/** A business of its own for each test: data folder, dist, reports and the build's cache side by side. */
export interface Business {
  root: string;
  data: string;
  dist: string;
  reports: string;
  cache: string;
}

/** A fresh copy of `fixtures/business/`: business.json and the three lists, no reviews yet (CONTRACT: Import). */
export async function businessCopy(): Promise<Business> {
  const root = await tempDir("reviewcast-import-");
  const data = join(root, "data");
  await cp(fixture("business"), data, { recursive: true });
  return { root, data, dist: join(root, "dist"), reports: join(root, "reports"), cache: join(root, "cache") };
}

function settings(business: Business): Record<string, string> {
  // Written before the importer, so loose on purpose: assumed the import writes its report beside OWNER_REPORT ("reports/, beside the
  // owner report"); reportFiles() also reads the checkout's reports/ in case it does not.
  return { DATA_DIR: business.data, OWNER_REPORT: join(business.reports, "owner.html"), BUILD_CACHE_DIR: business.cache };
}

/** `npm run import -- ARGS` with DATA_DIR set, as an owner runs it. */
export function runImport(business: Business, args: string[]): Promise<Run> {
  // npm --silent keeps its own lines out of what the import prints, "Missing script" included.
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  if (!scripts.import) throw new Error("package.json has no import script: `npm run import` is issue 53's");
  return runCommand("npm", ["run", "--silent", "import", "--", ...args], settings(business));
}

/** `npm run import -- ARGS`, which must succeed: its exit code checked, with what it printed when it is not 0. */
export async function importOk(business: Business, args: string[]): Promise<Run> {
  const run = await runImport(business, args);
  expect(run.code, printed(run)).toBe(0);
  return run;
}

/** `npm run build` of the business, which must succeed. */
export async function buildOk(business: Business): Promise<void> {
  const run = await buildBusiness(business);
  expect(run.code, printed(run)).toBe(0);
}

/** `npm run build` of the business into its dist/, with its own cache (the previous state the build keeps). */
export function buildBusiness(business: Business): Promise<Run> {
  return runBuild(business.data, business.dist, { ...SYNTHETIC, ...settings(business) });
}

/** What a run printed, for failure messages and for the report's wording. */
export const printed = (run: Run) => `${run.stdout}\n${run.stderr}`;

/** A review line as the data folder holds it: the schema's fields and what the import adds. */
export interface Line {
  id: string;
  date: string;
  rating: number;
  author: string;
  text: string;
  technicians?: string[];
  services?: string[];
  service_area?: string;
  response?: { date: string; text: string };
  updated?: string;
  withdrawn?: { at: string; reason: string };
  source?: { platform: string; id: string };
  [field: string]: unknown;
}

async function jsonLines(file: string): Promise<Record<string, unknown>[]> {
  if (!existsSync(file)) return [];
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Every line of `reviews/*.jsonl`. */
export async function publishedLines(data: string): Promise<Line[]> {
  const dir = join(data, "reviews");
  if (!existsSync(dir)) return [];
  const files = (await readdir(dir)).filter((f) => f.endsWith(".jsonl")).sort();
  return (await Promise.all(files.map((f) => jsonLines(join(dir, f))))).flat() as Line[];
}

/** A line of `pending.jsonl`: the review and why it waits. */
export interface Pending {
  review: Line;
  reason: string | undefined;
}

export async function pendingLines(data: string): Promise<Pending[]> {
  // Written before the importer, so loose on purpose: CONTRACT says "one review a line, with its reason"; assumed either the review's
  // fields with a `reason` beside them, or `{ review, reason }`.
  return (await jsonLines(join(data, "pending.jsonl"))).map((raw) => ({
    review: (raw.review ?? raw) as Line,
    reason: findString(raw, /reason/i),
  }));
}

/** The first string under a key matching `key`, however deep. */
function findString(value: unknown, key: RegExp): string | undefined {
  if (!value || typeof value !== "object") return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (key.test(k) && typeof v === "string" && v.trim()) return v;
    const deeper = findString(v, key);
    if (deeper) return deeper;
  }
  return undefined;
}

/**
 * What says a review was verified against a visit.
 * Written before the importer, so loose on purpose: CONTRACT leaves the field's name open; assumed a field whose name has "verif" in it
 * (`verified: true`, `verified: { job: … }`, `verified_visit`…), truthy.
 */
export function verifiedMark(line: Record<string, unknown>): unknown {
  return Object.entries(line).find(([k]) => /verif/i.test(k))?.[1];
}

/** Every file under `dir`, as text: gzip and brotli copies decompressed, so nothing hides in them. */
export async function textsUnder(dir: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  if (!existsSync(dir)) return texts;
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    let bytes = await readFile(path);
    if (path.endsWith(".gz")) bytes = gunzipSync(bytes);
    else if (path.endsWith(".br")) bytes = brotliDecompressSync(bytes);
    texts.set(path, bytes.toString("utf8"));
  }
  return texts;
}

/** The import's reports: the business's reports/ folder, and any file of the checkout's reports/ written since `since`. */
export async function reportFiles(business: Business, since: number): Promise<Map<string, string>> {
  const texts = await textsUnder(business.reports);
  for (const [path, text] of await textsUnder(join(ROOT, "reports"))) {
    if ((await stat(path)).mtimeMs >= since) texts.set(path, text);
  }
  return texts;
}

/** A GET answered by the sidecar over the business's dist/, as JSON. */
export async function getJson(business: Business, path: string): Promise<Record<string, unknown>> {
  const sidecar = await startSidecar(business.dist);
  try {
    const response = await sidecar.app.request(path);
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  } finally {
    await sidecar.close();
  }
}
