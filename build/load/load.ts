/**
 * Read and validate everything under DATA_DIR. Every problem is collected (not just the first)
 * and thrown together as a DataError; nothing half-valid comes out of here: the published
 * reviews come out as validated records, once.
 */
import { readdir } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { z } from "zod";
import { Business, Service, ServiceArea, Technician, type Review } from "../../core/schema/records.ts";
import { DataError, type Problem } from "./problems.ts";
import type { BuildCache } from "../cache/cache.ts";
import { unflagged, type Read } from "./unflagged.ts";
import { readBuildRecord, writeBuildRecord } from "./record.ts";
import { readLines, repeatedIds } from "./review-lines.ts";
import { DATA_FILES, nowIn, readList, readRecord } from "./validate.ts";

export { DATA_FILES };

export interface SourceData {
  business: Business;
  services: Service[];
  technicians: Technician[];
  serviceAreas: ServiceArea[];
  /** The withdrawn reviews, in file order. */
  withdrawn: { id: string; at: string }[];
  /** The published reviews, in file order. */
  reviews: Review[];
  /** What the build did or could not check that its author should know (printed with its result). */
  notices: string[];
  /** Note in the build's record that this build's dist/ holds reviews.json with this ETag (build/load/record.ts). */
  remember(etag: string): Promise<void>;
}

/** Most problems printed; the rest are counted, so a wholly broken file does not flood a terminal. */
const MAX_PROBLEMS = 200;

export async function loadData(dir: string, onProgress?: (reviews: number) => void, cache?: BuildCache): Promise<SourceData> {
  const notices: string[] = [];
  const problems: Problem[] = [];
  const name = (file: string) => {
    const path = relative(process.cwd(), join(dir, file));
    return path.startsWith("..") ? join(dir, file) : path || file;
  };

  const business = await readRecord(join(dir, DATA_FILES.business), name(DATA_FILES.business), Business, problems);
  // A list with problems of its own is not used to check references: its problems are the cause,
  // and every review naming one of its ids would only repeat them.
  const list = async <T extends z.ZodType<{ id: string }>>(file: string, schema: T) => {
    const before = problems.length;
    const records = await readList(join(dir, file), name(file), schema, problems);
    return { records, ids: problems.length === before ? new Set(records.map((r) => r.id)) : undefined };
  };
  const services = await list(DATA_FILES.services, Service);
  const technicians = await list(DATA_FILES.technicians, Technician);
  const serviceAreas = await list(DATA_FILES.serviceAreas, ServiceArea);
  const known = { technicians: technicians.ids, services: services.ids, service_area: serviceAreas.ids };
  const now = nowIn(business?.time_zone);
  const record = cache?.dir ? await readBuildRecord(cache.dir, dir) : undefined;
  const reviewDir = join(dir, DATA_FILES.reviews);
  const files = await readdir(reviewDir).then(
    (names) => names.filter((n) => n.endsWith(".jsonl")).sort(),
    () => {
      problems.push({ file: name(DATA_FILES.reviews), expected: "expected a folder of .jsonl files, one review per line" });
      return [];
    },
  );
  const read: Read[] = [];
  const names: string[] = [];
  let count = 0;
  for (const fileName of files) {
    const file = name(join(DATA_FILES.reviews, fileName));
    const lines = await readLines(join(reviewDir, fileName), file, known, now, problems);
    read.push(lines);
    names.push(file);
    if (onProgress && Math.floor((count + lines.ids.length) / 50_000) > Math.floor(count / 50_000)) onProgress(count + lines.ids.length);
    count += lines.ids.length;
  }
  for (const { f, line, id } of repeatedIds(read)) {
    const first = read.findIndex((lines) => lines.ids.includes(id));
    const at = `${names[first]} line ${read[first]!.ids.indexOf(id) + 1} (${id})`;
    problems.push({
      file: names[f]!,
      record: `line ${line} (${id})`,
      field: "id",
      value: id,
      expected: `expected a unique id; ${at} has it already`,
    });
  }
  const time = `${new Date(now.time).toISOString().slice(0, 19)}Z`;
  const found = unflagged(record, files, read, { time, day: now.day });
  // A line refused above still holds its review: not gone, only broken (its own problem says how).
  const refused = new Set(problems.map((p) => /\((.+)\)$/.exec(p.record ?? "")?.[1]));
  for (const { file, id } of found.gone) {
    if (refused.has(id)) continue;
    const expected =
      `the last deploy published ${id} and no file holds it now: to take a review down, keep its line ` +
      `and add "withdrawn": {"at": "${time}", "reason": ` +
      `"…"}, so that since lists it as removed`;
    problems.push({ file: name(join(DATA_FILES.reviews, file)), record: id, expected });
  }
  if (files.length === 0 && problems.length === 0) {
    problems.push({ file: name(DATA_FILES.reviews), expected: "expected at least one .jsonl file of reviews" });
  }
  if (problems.length > 0) {
    // In file order: a line's own problems were found as it was read, a repeated id after.
    const rank = new Map(files.map((f, i) => [name(join(DATA_FILES.reviews, f)), i]));
    const at = (p: Problem) => [rank.get(p.file) ?? -1, Number(/^line (\d+)/.exec(p.record ?? "")?.[1] ?? 0)] as const;
    problems.sort((a, b) => at(a)[0] - at(b)[0] || at(a)[1] - at(b)[1]);
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS)
      shown.push({ file: name("."), expected: `${problems.length - MAX_PROBLEMS} more problems not shown` });
    throw new DataError(shown);
  }
  for (const { file: f, line, id, noticed } of found.fresh) {
    const what = noticed.answered
      ? `its reply changed without a new response.date: published as answered on ${noticed.answered}`
      : `its text, stars or reply changed without a new "updated": published as updated at ${noticed.updated}`;
    notices.push(`${names[f]} line ${line + 1} (${id}): ${what} (kept in the build's record, the data left as it is)`);
  }
  if (!record?.deployed)
    notices.push(
      "no deploy of this data folder is recorded (`npm run hub:ping` records one after a deploy; the cache off or new): " +
        'a published review edited without "updated", or deleted, cannot be noticed this time',
    );

  const folder = resolve(dir);
  const remember = async (etag?: string) => {
    if (cache?.dir)
      await writeBuildRecord(cache.dir, {
        folder,
        built: { said: found.said, etag },
        deployed: record?.deployed,
        noticed: Object.fromEntries(found.dated),
      });
  };
  await remember();

  const withdrawn = read.flatMap((lines) => [...lines.at].sort(([a], [b]) => a - b).map(([i, at]) => ({ id: lines.ids[i]!, at })));
  // A published review the build dated (its record) is published with that time.
  const reviews = read.flatMap((lines) =>
    [...lines.records].flatMap(([i, review]) => {
      if (!lines.months[i]) return [];
      const dated = found.dated.get(review.id);
      if (!dated) return [review];
      return [
        dated.answered && review.response
          ? { ...review, response: { ...review.response, date: dated.answered } }
          : { ...review, updated: dated.updated },
      ];
    }),
  );
  return {
    business: business!,
    services: services.records,
    technicians: technicians.records,
    serviceAreas: serviceAreas.records,
    withdrawn,
    reviews,
    notices,
    remember,
  };
}
