/** The synthetic data and built dist/ folders the benchmarks use, kept in .bench/ between runs, and the edits of a day. */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, run } from "./processes.ts";

export const WORK = join(ROOT, ".bench");

export const exists = (path: string) =>
  readFile(path).then(
    () => true,
    () => false,
  );

/** The synthetic data folder of n reviews, generated when missing. */
export async function ensureData(n: number): Promise<string> {
  const data = join(WORK, `data-${n}`);
  if (!(await exists(join(data, "business.json"))))
    await run(["build/synth/index.ts", "--reviews", String(n), "--seed", "bench", "--out", data]);
  return data;
}

/** The built dist/ of n reviews, built when missing. */
export async function ensureDist(n: number): Promise<string> {
  const dist = join(WORK, `dist-${n}`);
  if (!(await exists(join(dist, "_manifest.json"))))
    await run(["bench/build-once.ts"], {
      DATA_DIR: await ensureData(n),
      DIST_DIR: dist,
      BUILD_CACHE_DIR: join(WORK, `cache-${n}`),
      OWNER_REPORT: join(WORK, `owner-${n}.html`),
    });
  return dist;
}

/** Rewrite the newest data file's lines with `edit` (its last line is the newest review). */
async function editNewest(data: string, edit: (lines: string[], last: Record<string, unknown>) => void): Promise<void> {
  const files = (await readdir(join(data, "reviews"))).filter((f) => f.endsWith(".jsonl")).sort();
  const file = join(data, "reviews", files.at(-1)!);
  const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
  edit(lines, JSON.parse(lines.at(-1)!));
  await writeFile(file, `${lines.join("\n")}\n`);
}

/** Change the text of the newest review of the data (as an edit would). */
export const changeOneReview = (data: string, i: number) =>
  editNewest(data, (lines, last) => void (lines[lines.length - 1] = JSON.stringify({ ...last, text: `${last.text} (Edited ${i}.)` })));

/** Append one new review to the data (a copy of the last one, with its own id and text). */
export const addOneReview = (data: string, n: number) =>
  editNewest(data, (lines, last) => {
    const added: Record<string, unknown> = {
      ...last,
      id: `bench-new-${n}`,
      text: `The technician found the wasp nest under the deck and it was gone the same day (visit ${n}). Fair price.`,
    };
    delete added.withdrawn;
    lines.push(JSON.stringify(added));
  });
