/**
 * `npm run import -- [--jobs JOBS.csv] [--map field=Header]... [--date-format F] [--withdraw-missing] FILE...`
 * merges reviews into DATA_DIR; `--accept ID...` publishes pending reviews the owner vouches for,
 * `--drop ID...` keeps them out for good. Exit 0 with the report; exit 1 naming every problem,
 * with nothing written.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { toUtc } from "../core/local-time.ts";
import { readMaps } from "./columns.ts";
import { localDate, orderOf, type Order } from "./dates.ts";
import { PENDING_FILE, readFolder, writeFolder, type Folder, type Pending } from "./folder.ts";
import { readJobs, type Visit } from "./jobs.ts";
import { merge, publish } from "./merge.ts";
import { formatProblem, ImportError, type Problem } from "./problems.ts";
import { readSources, readText } from "./read.ts";
import { emptyReport, formatReport, type Report } from "./report.ts";
import { readTable } from "./table.ts";

const USAGE =
  "usage: npm run import -- [--jobs JOBS.csv] [--map field=Header]... [--date-format DD/MM/YYYY] [--withdraw-missing] FILE...\n" +
  "       npm run import -- --accept ID...   (publish pending reviews)\n" +
  "       npm run import -- --drop ID...     (keep pending reviews out)";

/** Where the report goes: IMPORT_REPORT, else beside the owner report (OWNER_REPORT, reports/owner.html). */
export function reportPath(env: NodeJS.ProcessEnv): string | undefined {
  if (env.IMPORT_REPORT === "off") return undefined;
  if (env.IMPORT_REPORT) return env.IMPORT_REPORT;
  const owner = env.OWNER_REPORT && env.OWNER_REPORT !== "off" ? env.OWNER_REPORT : "reports/owner.html";
  return join(dirname(owner), "import.txt");
}

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<{ report: Report; withdrawMissing: boolean; folder: Folder }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      jobs: { type: "string" },
      map: { type: "string", multiple: true, default: [] },
      "date-format": { type: "string" },
      "withdraw-missing": { type: "boolean", default: false },
      accept: { type: "boolean", default: false },
      drop: { type: "boolean", default: false },
    },
  });
  const dir = env.DATA_DIR || "data";
  const problems: Problem[] = [];
  const out = reportPath(env);
  if (out && !relative(resolve(dir), resolve(out)).startsWith("..")) {
    problems.push({
      file: "IMPORT_REPORT",
      value: out,
      expected: "expected a path outside DATA_DIR: the report is the owner's, never published",
    });
  }
  if (positionals.length === 0) throw new Error(USAGE);
  const folder = await readFolder(dir, problems);
  const now = toUtc(new Date().toISOString());
  const zone = folder?.business.time_zone ?? "UTC";
  const today = localDate(Date.now(), zone);
  const report = emptyReport(values.accept || values.drop ? [] : positionals);
  if (values.accept || values.drop) {
    if (problems.length || !folder) throw new ImportError(problems);
    decide(folder, positionals, values.accept ? "accept" : "drop", { now, today }, report, problems);
    if (problems.length) throw new ImportError(problems);
    await writeFolder(folder);
    return { report, withdrawMissing: false, folder };
  }
  const maps = readMaps(values.map, problems);
  let order: Order | undefined;
  if (values["date-format"] !== undefined) {
    order = orderOf(values["date-format"]);
    if (!order)
      problems.push({
        file: "--date-format",
        value: values["date-format"],
        expected: "expected a format such as MM/DD/YYYY, DD/MM/YYYY or YYYY-MM-DD",
      });
  }
  const read = await readSources(positionals, { maps, order, timeZone: zone }, problems);
  let visits: Visit[] | undefined;
  if (values.jobs) {
    const text = await readText(values.jobs, problems);
    const table = text === undefined ? undefined : readTable(values.jobs, text, problems);
    visits = table && readJobs(table, {}, order, zone, problems);
  }
  const future = read.reviews.filter((r) => r.date > today);
  for (const r of future)
    problems.push({
      file: r.file,
      record: r.record,
      field: "date",
      value: r.date,
      expected: `expected a day not after today (${today}) in ${zone}`,
    });
  if (problems.length || !folder) throw new ImportError(problems);
  if (!folder.business.time_zone)
    report.notes.push("business.json has no time_zone: times became UTC days (add time_zone, e.g. America/Los_Angeles)");
  merge(folder, read.reviews, { visits, complete: read.complete, withdrawMissing: values["withdraw-missing"], now, today }, report);
  await writeFolder(folder);
  return { report, withdrawMissing: values["withdraw-missing"], folder };
}

/** The owner's word on pending reviews: accepted ones are published, vouched for by the owner; dropped ones stay out. */
function decide(
  folder: Folder,
  ids: string[],
  how: "accept" | "drop",
  times: { now: string; today: string },
  report: Report,
  problems: Problem[],
) {
  const pending = folder.pending;
  for (const id of ids) {
    const index = pending.records.findIndex((r, i) => r?.id === id && pending.lines[i] !== "");
    if (index < 0) {
      const waiting = pending.records.filter((r) => r && !r.pending.dropped).map((r) => r!.id);
      problems.push({
        file: PENDING_FILE,
        field: `--${how}`,
        value: id,
        expected: `expected the id of a pending review (${waiting.slice(0, 12).join(", ") || "none waits"})`,
      });
      continue;
    }
    const review = pending.records[index]!;
    if (how === "drop") {
      const dropped: Pending = { ...review, pending: { ...review.pending, dropped: true } };
      pending.lines[index] = JSON.stringify(dropped);
      pending.records[index] = dropped;
      report.dropped.push({ id });
      continue;
    }
    const { pending: _, ...record } = review;
    pending.lines[index] = "";
    publish(folder, { ...record, verified: { by: "owner", at: times.now } }, times);
    report.accepted.push({ id });
  }
}

try {
  const { report, withdrawMissing } = await run(process.argv.slice(2), process.env);
  const text = formatReport(report, withdrawMissing);
  process.stdout.write(text);
  const out = reportPath(process.env);
  if (out) {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, text);
    console.log(`report written to ${out}`);
  }
} catch (error) {
  if (error instanceof ImportError) {
    console.error(`import stopped: ${error.message}; nothing was written.`);
    for (const problem of error.problems) console.error(`  - ${formatProblem(problem)}`);
  } else if ((error as Error).name === "TypeError" && (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    console.error(`${(error as Error).message}\n${USAGE}`);
  } else console.error((error as Error).message);
  process.exitCode = 1;
}
