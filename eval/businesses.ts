/**
 * The written businesses (eval/businesses/<slug>/, eval/labelling-guide.md §8): their files read
 * and checked, each problem named by file, review and field, and the split each belongs to.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ASPECTS } from "../insights/sentiment/aspects.ts";
import { POLARITIES } from "../insights/sentiment/engine.ts";

export const BUSINESSES = new URL("./businesses/", import.meta.url).pathname;
export const PARTS = ["train", "validation", "test"] as const;
export type Part = (typeof PARTS)[number];

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lower case, digits and -");

export const Business = z.object({
  slug: id,
  name: z.string().min(1),
  region: z.string().min(1),
  town: z.string().min(1),
  pests: z.array(z.string().min(1)).min(1),
  written_by: z.string().min(1),
  written: z.iso.date(),
});

export const Technician = z.object({
  id,
  name: z.string().min(1),
  role: z.enum(["technician", "sales", "office"]),
  aliases: z.array(z.string().min(1)),
});

export const Service = z.object({ id, name: z.string().min(1), aliases: z.array(z.string().min(1)).default([]) });

export const LabelMention = z.object({
  aspect: z.enum(ASPECTS.map((a) => a.id) as [string, ...string[]]),
  polarity: z.enum(POLARITIES),
  technician: id.nullable(),
});

export const Label = z.object({
  start: z.int().nonnegative(),
  end: z.int().positive(),
  sentence: z.string().min(1),
  mentions: z.array(LabelMention),
});

export const Review = z.object({
  id,
  date: z.iso.date(),
  rating: z.int().min(1).max(5),
  author: z.string().min(1),
  source: z.enum(["google", "yelp", "nextdoor", "facebook"]),
  language: z.string().regex(/^[a-z]{2}$/, "a two-letter language code"),
  text: z.string().min(1),
  technicians: z.array(id),
  services: z.array(id),
  labels: z.array(Label),
  notes: z.string().optional(),
});

export const SecondLabels = z.object({ id, labels: z.array(Label) });

export const Splits = z.object(Object.fromEntries(PARTS.map((p) => [p, z.array(id)])) as Record<Part, z.ZodArray<typeof id>>);

export type Review = z.infer<typeof Review>;
export type Label = z.infer<typeof Label>;
export type LabelMention = z.infer<typeof LabelMention>;
export type Technician = z.infer<typeof Technician>;

export interface WrittenBusiness {
  slug: string;
  business: z.infer<typeof Business>;
  technicians: Technician[];
  services: z.infer<typeof Service>[];
  areas: string[];
  reviews: Review[];
  /** A second reader's labels by review id, where labels.second.jsonl exists. */
  second?: Map<string, Label[]>;
}

/** What is wrong with one business's files, each problem as "file: where: what". */
export class BusinessError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, where: string, problems: string[]): T | undefined {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const issue of r.error.issues) problems.push(`${where}${issue.path.length ? `: ${issue.path.join(".")}` : ""}: ${issue.message}`);
  return undefined;
}

function readJson(file: string, problems: string[]): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    problems.push(`${file}: ${(e as Error).message}`);
    return undefined;
  }
}

/** A JSON-lines file's records with their line numbers, blank lines aside. */
function readLines(file: string, problems: string[]): { line: number; value: unknown }[] {
  const out: { line: number; value: unknown }[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((l, i) => {
      if (!l.trim()) return;
      try {
        out.push({ line: i + 1, value: JSON.parse(l) });
      } catch (e) {
        problems.push(`${file}:${i + 1}: ${(e as Error).message}`);
      }
    });
  return out;
}

/** A review's (or a second reader's) labels against its text and the business's staff. */
export function labelProblems(text: string, labels: readonly Label[], staff: ReadonlyMap<string, Technician>, where: string): string[] {
  const problems: string[] = [];
  let at = 0;
  labels.forEach((l, i) => {
    const here = `${where}: labels.${i}`;
    if (text.slice(l.start, l.end) !== l.sentence)
      problems.push(`${here}: text.slice(${l.start}, ${l.end}) is ${JSON.stringify(text.slice(l.start, l.end))}, not the sentence`);
    if (l.start < at) problems.push(`${here}: starts at ${l.start}, before the previous sentence ends (${at})`);
    else if (text.slice(at, l.start).trim()) problems.push(`${here}: ${JSON.stringify(text.slice(at, l.start))} is in no sentence`);
    at = Math.max(at, l.end);
    const seen = new Set<string>();
    l.mentions.forEach((m, j) => {
      const key = `${m.aspect} ${m.technician}`;
      if (seen.has(key))
        problems.push(`${here}.mentions.${j}: a second ${m.aspect} mention for ${m.technician ?? "nobody"} in one sentence`);
      seen.add(key);
      if (m.technician === null) return;
      const t = staff.get(m.technician);
      if (!t) problems.push(`${here}.mentions.${j}.technician: ${m.technician} is not in technicians.json`);
      else if (t.role === "office") problems.push(`${here}.mentions.${j}.technician: ${m.technician} is office staff, never credited`);
    });
  });
  if (text.slice(at).trim()) problems.push(`${where}: labels: ${JSON.stringify(text.slice(at))} is in no sentence`);
  return problems;
}

/** One business's folder, read and checked; throws a BusinessError listing every problem. */
export function readBusiness(slug: string, root = BUSINESSES): WrittenBusiness {
  const dir = join(root, slug);
  const problems: string[] = [];
  const file = (name: string) => join(dir, name);
  for (const name of ["business.json", "technicians.json", "services.json", "areas.txt", "reviews.jsonl"])
    if (!existsSync(file(name))) problems.push(`${file(name)}: missing`);
  if (problems.length) throw new BusinessError(problems);
  const business = parsed(Business, readJson(file("business.json"), problems), file("business.json"), problems);
  if (business && business.slug !== slug) problems.push(`${file("business.json")}: slug: ${business.slug}, not the folder's ${slug}`);
  const technicians = parsed(z.array(Technician), readJson(file("technicians.json"), problems), file("technicians.json"), problems) ?? [];
  const services = parsed(z.array(Service), readJson(file("services.json"), problems), file("services.json"), problems) ?? [];
  const staff = new Map(technicians.map((t) => [t.id, t]));
  const serviceIds = new Set(services.map((s) => s.id));
  const areas = readFileSync(file("areas.txt"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  if (!areas.length) problems.push(`${file("areas.txt")}: no service area`);
  const reviews: Review[] = [];
  const ids = new Set<string>();
  for (const { line, value } of readLines(file("reviews.jsonl"), problems)) {
    const where = `${file("reviews.jsonl")}:${line}`;
    const r = parsed(Review, value, where, problems);
    if (!r) continue;
    const at = `${where}: ${r.id}`;
    if (!r.id.startsWith(`${slug}-`)) problems.push(`${at}: id: not ${slug}-NNN`);
    if (ids.has(r.id)) problems.push(`${at}: id: a second review with this id`);
    ids.add(r.id);
    for (const t of r.technicians) if (!staff.has(t)) problems.push(`${at}: technicians: ${t} is not in technicians.json`);
    for (const s of r.services) if (!serviceIds.has(s)) problems.push(`${at}: services: ${s} is not in services.json`);
    problems.push(...labelProblems(r.text, r.labels, staff, at));
    reviews.push(r);
  }
  let second: Map<string, Label[]> | undefined;
  if (existsSync(file("labels.second.jsonl"))) {
    second = new Map();
    const texts = new Map(reviews.map((r) => [r.id, r.text]));
    for (const { line, value } of readLines(file("labels.second.jsonl"), problems)) {
      const where = `${file("labels.second.jsonl")}:${line}`;
      const s = parsed(SecondLabels, value, where, problems);
      if (!s) continue;
      const text = texts.get(s.id);
      if (text === undefined) problems.push(`${where}: id: ${s.id} is not in reviews.jsonl`);
      else problems.push(...labelProblems(text, s.labels, staff, `${where}: ${s.id}`));
      second.set(s.id, s.labels);
    }
    for (const r of reviews) if (!second.has(r.id)) problems.push(`${file("labels.second.jsonl")}: ${r.id} is not labelled`);
  }
  if (problems.length) throw new BusinessError(problems);
  return { slug, business: business!, technicians, services, areas, reviews, second };
}

/** splits.json, checked against the folders: each business in exactly one part. */
export function readSplits(root = BUSINESSES): Record<Part, string[]> {
  const file = join(root, "splits.json");
  const problems: string[] = [];
  const splits = parsed(Splits, readJson(file, problems), file, problems);
  if (!splits) throw new BusinessError(problems);
  const folders = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const partOf = new Map<string, Part>();
  for (const part of PARTS)
    for (const slug of splits[part]) {
      if (partOf.has(slug)) problems.push(`${file}: ${part}: ${slug} is also in ${partOf.get(slug)}`);
      partOf.set(slug, part);
      if (!folders.includes(slug)) problems.push(`${file}: ${part}: ${slug} has no folder`);
    }
  for (const slug of folders) if (!partOf.has(slug)) problems.push(`${file}: ${slug} is in no part`);
  if (problems.length) throw new BusinessError(problems);
  return splits;
}

/** Every problem of every business and of splits.json (empty when all is well). */
export function checkAll(root = BUSINESSES): string[] {
  const problems: string[] = [];
  const folders = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory());
  for (const d of folders) {
    try {
      readBusiness(d.name, root);
    } catch (e) {
      if (e instanceof BusinessError) problems.push(...e.problems);
      else throw e;
    }
  }
  try {
    readSplits(root);
  } catch (e) {
    if (e instanceof BusinessError) problems.push(...e.problems);
    else throw e;
  }
  return problems;
}
