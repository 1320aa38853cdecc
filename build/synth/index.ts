/**
 * `npm run synth -- --reviews N --seed S --out DIR [--years Y]`: a complete, valid data folder with the same
 * layout as data/, for scale tests. Reviews are streamed to disk a year file at a time.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Business, Review, Service, ServiceArea, Technician } from "../../core/schema/records.ts";
import { DATA_FILES } from "../load/validate.ts";
import { progressDone, progressReporter } from "../progress.ts";
import { seededRandom, type Random } from "./random.ts";
import { composeReview, OWNER_REPLIES } from "./text.ts";
import { WORDS } from "./words.ts";

const { services: SERVICES, first: FIRST, last: LAST, towns: TOWNS, authors: AUTHORS } = WORDS;
/** First names of technicians written about as she/her. */
const SHE = new Set(WORDS.she);

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export interface SynthOptions {
  reviews: number;
  seed: string;
  out: string;
  /** Last review date; the reviews span `years` (four by default) before it. */
  until?: string;
  years?: number;
}

export async function synthesize(options: SynthOptions, progress: (step: string) => void = () => {}): Promise<void> {
  const random = seededRandom(options.seed);
  const technicians: Technician[] = FIRST.map((first, i) => ({ id: slug(`${first} ${LAST[i]}`), name: `${first} ${LAST[i]}` }));
  const areas: ServiceArea[] = TOWNS.map((name) => ({ id: slug(name), name }));
  const business: Business = {
    name: "Valley Shield Pest Control",
    description: "Synthetic data set for scale tests: a family-owned pest-control company around Sacramento.",
    telephone: "+1-916-555-0142",
    email: "office@valleyshield.example",
    address: { street: "1418 Vernon Street, Suite B", locality: "Roseville", region: "CA", postal_code: "95678", country: "US" },
    opening_hours: [{ days: ["Mo", "Tu", "We", "Th", "Fr"], opens: "07:30", closes: "17:30" }],
    updated: "2022-01-01T00:00:00Z",
  };
  await rm(options.out, { recursive: true, force: true });
  await mkdir(join(options.out, DATA_FILES.reviews), { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(join(options.out, DATA_FILES.business), json(business));
  await writeFile(join(options.out, DATA_FILES.services), json(SERVICES.map(({ id, name, description }) => ({ id, name, description }))));
  await writeFile(join(options.out, DATA_FILES.technicians), json(technicians));
  await writeFile(join(options.out, DATA_FILES.serviceAreas), json(areas));

  const until = Date.parse(`${options.until ?? "2026-11-15"}T00:00:00Z`);
  const span = Math.round((options.years ?? 4) * 365) * 86_400_000;
  const width = String(options.reviews).length;
  // Replies, edits, late publications and withdrawals happen no later than the last day either.
  const last = new Date(until).toISOString().slice(0, 10);
  let file: { year: string; stream: WriteStream } | undefined;
  for (let i = 0; i < options.reviews; i++) {
    // Dates rise with i, so each year's file is written once, in order.
    const day = new Date(until - span + Math.floor((i * span) / Math.max(1, options.reviews) / 86_400_000) * 86_400_000);
    const date = day.toISOString().slice(0, 10);
    const review = synthReview(random, `r-${String(i + 1).padStart(width, "0")}`, date, last, technicians, areas);
    const year = date.slice(0, 4);
    if (file?.year !== year) {
      if (file) await close(file.stream);
      file = { year, stream: createWriteStream(join(options.out, DATA_FILES.reviews, `${year}.jsonl`)) };
    }
    if (!file.stream.write(`${JSON.stringify(review)}\n`)) await once(file.stream, "drain");
    if ((i + 1) % 20_000 === 0) progress(`${(i + 1).toLocaleString("en-US")} of ${options.reviews.toLocaleString("en-US")} reviews`);
  }
  if (file) await close(file.stream);
}

function synthReview(random: Random, id: string, date: string, last: string, technicians: Technician[], areas: ServiceArea[]): Review {
  const later = (days: number) => {
    const day = addDays(date, days);
    return day > last ? last : day;
  };
  const rating = random.weighted([
    [5, 0.66],
    [4, 0.14],
    [3, 0.06],
    [2, 0.04],
    [1, 0.1],
  ] as const);
  const service = random.weighted(SERVICES.map((s) => [s, s.weight] as const));
  const services = [service.id];
  if (random.chance(0.1)) {
    const other = random.pick(SERVICES).id;
    if (other !== service.id) services.push(other);
  }
  const techList = random.chance(0.7) ? [random.pick(technicians)] : [];
  if (techList.length && random.chance(0.08)) {
    const other = random.pick(technicians);
    if (other !== techList[0]) techList.push(other);
  }
  const area = random.pick(areas);
  const tech = techList[0] ? techList[0].name.split(" ")[0]! : random.pick(["the tech", "the technician", "the guy", "he"]);
  const pest = random.pick(service.pests);
  const first = techList[0]?.name.split(" ")[0];
  const pronouns = !first
    ? { he: "he", him: "him", his: "his" }
    : SHE.has(first)
      ? { he: "she", him: "her", his: "her" }
      : { he: "he", him: "him", his: "his" };
  const { text } = composeReview(random, rating, { tech, ...pronouns, pest, town: area.name, service: service.name.toLowerCase() });
  const author = random.chance(0.85) ? `${random.pick(AUTHORS)} ${String.fromCharCode(65 + random.int(0, 25))}.` : random.pick(AUTHORS);
  const review: Review = { id, date, rating, author, text, technicians: techList.map((t) => t.id), services, service_area: area.id };
  if (random.chance(rating <= 2 ? 0.6 : 0.15)) {
    const replies = OWNER_REPLIES[rating <= 2 ? "bad" : "good"];
    const replyText = random.pick(replies).replace("{name}", author.split(" ")[0]!).replace("{tech}", tech).replace("{pest}", pest);
    review.response = { date: later(random.int(0, 4)), text: replyText };
  }
  if (random.chance(0.02)) {
    review.updated = `${later(random.int(3, 40))}T${String(random.int(8, 20)).padStart(2, "0")}:15:00Z`;
    review.text += "\n\nEDIT: they came back and took care of it.";
  }
  if (random.chance(0.005)) {
    review.withdrawn = {
      at: `${later(random.int(1, 90))}T09:00:00Z`,
      reason: random.pick(["customer request", "duplicate", "not a customer"]),
    };
  }
  return review;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

async function close(stream: WriteStream): Promise<void> {
  stream.end();
  await once(stream, "finish");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      reviews: { type: "string", default: "10000" },
      seed: { type: "string", default: "1" },
      out: { type: "string" },
      until: { type: "string" },
      years: { type: "string", default: "4" },
    },
  });
  const years = Number(values.years);
  if (!(years > 0 && years <= 100)) {
    console.error(`--years: expected a number of years from more than 0 to 100, got ${JSON.stringify(values.years)}`);
    process.exit(2);
  }
  const reviews = Number(values.reviews);
  if (!Number.isSafeInteger(reviews) || reviews < 0) {
    console.error(`--reviews: expected a whole number, got ${JSON.stringify(values.reviews)}`);
    process.exit(2);
  }
  if (!values.out) {
    console.error("--out: required, the folder to write (it is replaced)");
    process.exit(2);
  }
  const started = performance.now();
  await synthesize({ reviews, seed: values.seed!, out: values.out, until: values.until, years }, progressReporter("synth"));
  progressDone();
  console.log(`wrote ${reviews} reviews to ${values.out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
