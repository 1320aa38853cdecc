/**
 * DATA_DIR as the import reads and writes it: business.json and the three lists (read, checked),
 * the review files line by line (a line the import does not change keeps its bytes), and
 * pending.jsonl (reviews waiting for the owner, which the build never reads). Everything is
 * written at the end, all of it or nothing: each changed file to a temporary beside it, then
 * renamed over the old one.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import { Business, Review, Service, ServiceArea, Technician } from "../core/schema/records.ts";
import type { Lists } from "./names.ts";
import type { Problem } from "./problems.ts";

export const PENDING_FILE = "pending.jsonl";

/** A review waiting in pending.jsonl: the review as it would be published, with why it waits. */
export type Pending = Review & { pending: { reason: string; dropped?: true } };

export interface Folder {
  dir: string;
  business: Business;
  lists: Lists;
  /** Review files by name (`2026.jsonl`): their lines, each parsed where it is JSON. */
  files: Map<string, { text: string; lines: string[]; records: (Review | undefined)[] }>;
  pending: { text: string; lines: string[]; records: (Pending | undefined)[] };
}

async function readJson(path: string, file: string, problems: Problem[]): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    problems.push({ file, expected: `expected a readable JSON file (${(error as Error).message})` });
    return undefined;
  }
}

function checked<T>(schema: z.ZodType<T>, value: unknown, file: string, problems: Problem[]): T | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues.slice(0, 10)) {
    problems.push({ file, field: issue.path.join(".") || "(file)", expected: `${issue.message} (npm run build names every problem)` });
  }
  return undefined;
}

const lineRecords = <T>(text: string) => {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const records = lines.map((line) => {
    try {
      return JSON.parse(line) as T;
    } catch {
      return undefined;
    }
  });
  return { text, lines, records };
};

export async function readFolder(dir: string, problems: Problem[]): Promise<Folder | undefined> {
  const before = problems.length;
  const business = checked(
    Business,
    await readJson(join(dir, "business.json"), join(dir, "business.json"), problems),
    join(dir, "business.json"),
    problems,
  );
  const list = async <T>(name: string, schema: z.ZodType<T>) =>
    checked(z.array(schema), await readJson(join(dir, name), join(dir, name), problems), join(dir, name), problems) ?? [];
  const lists: Lists = {
    technicians: await list("technicians.json", Technician),
    services: await list("services.json", Service),
    areas: await list("service-areas.json", ServiceArea),
  };
  const files: Folder["files"] = new Map();
  const names = await readdir(join(dir, "reviews")).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith(".jsonl")).sort())
    files.set(name, lineRecords<Review>(await readFile(join(dir, "reviews", name), "utf8")));
  const pendingPath = join(dir, PENDING_FILE);
  const pending = lineRecords<Pending>(existsSync(pendingPath) ? await readFile(pendingPath, "utf8") : "");
  if (problems.length > before || !business) return undefined;
  return { dir, business, lists, files, pending };
}

/** The files whose text changed, written whole: temporaries first, then renamed into place. */
export async function writeFolder(folder: Folder): Promise<string[]> {
  const writes: [string, string][] = [];
  for (const [name, file] of folder.files) {
    const lines = file.lines.filter(Boolean);
    const text = lines.length ? `${lines.join("\n")}\n` : "";
    if (text !== file.text) writes.push([join(folder.dir, "reviews", name), text]);
  }
  // A line emptied is a review that left the file (published, or accepted).
  const left = folder.pending.lines.filter(Boolean);
  const pending = left.length ? `${left.join("\n")}\n` : "";
  if (pending !== folder.pending.text) writes.push([join(folder.dir, PENDING_FILE), pending]);
  const temporaries = writes.map(([path]) => `${path}.import-${process.pid}.tmp`);
  try {
    for (const [i, [path, text]] of writes.entries()) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporaries[i]!, text);
    }
  } catch (error) {
    await Promise.all(temporaries.map((t) => rm(t, { force: true })));
    throw error;
  }
  for (const [i, [path]] of writes.entries()) await rename(temporaries[i]!, path);
  return writes.map(([path]) => path);
}
