/**
 * What importing the fixtures should give, written from their README (the formats' documents and
 * CONTRACT.md), not from the importer: each review with text found by a phrase of its own, where it
 * should land, and with which visit's tags; and the customers' contact details read from the files.
 */
import { readFileSync } from "node:fs";
import { fixture } from "./fixtures-cli.ts";

/** The first import's files: both Google pages and the three CSVs. */
export const FIRST_FILES = [
  "google-reviews-page-1.json",
  "google-reviews-page-2.json",
  "survey-google-forms.csv",
  "reviews-excel.csv",
  "reviews-semicolon-eu.csv",
].map(fixture);
export const JOBS = fixture("jobs-export.csv");

interface Visit {
  technicians: string[];
  services: string[];
  area: string;
}

export interface Expected {
  file: string;
  /** Words of this review alone, as the customer wrote them. */
  phrase: string;
  rating: number;
  /** The business's local date (America/Chicago). */
  date: string;
  /** The visit it belongs to; none for a review that waits in pending.jsonl. */
  visit?: Visit;
  /** Why it waits. */
  reason?: RegExp;
  /** What CONTRACT.md leaves open in its match, for the lead to align. */
  assumes?: string;
}

const visit = (technicians: string[], services: string[], area: string): Visit => ({ technicians, services, area });
// Written before the importer, so loose on purpose: the reasons' wording is the importer's; assumed it names the visit (or job) it lacks,
// and says when several match.
const NO_VISIT = /visit|job/i;
const SEVERAL = /several|more than one|multiple|ambiguous|\b2\b|two/i;

const G1 = "google-reviews-page-1.json";
const G2 = "google-reviews-page-2.json";
const FORMS = "survey-google-forms.csv";
const EXCEL = "reviews-excel.csv";
const EU = "reviews-semicolon-eu.csv";

export const PUBLISHED: Expected[] = [
  {
    file: G1,
    phrase: "Found 3 in the garage",
    rating: 5,
    date: "2026-11-03",
    visit: visit(["raymond-okafor"], ["scorpion-control"], "boerne"),
  },
  {
    file: G2,
    phrase: "asks about the dog",
    rating: 5,
    date: "2026-10-03",
    visit: visit(["luis-cantu"], ["general-pest-control", "scorpion-control"], "new-braunfels"),
  },
  {
    file: G2,
    phrase: "tracked mud all through",
    rating: 2,
    date: "2026-10-09",
    visit: visit(["wade-pruitt", "raymond-okafor"], ["termite-treatment"], "kyle"),
  },
  {
    file: G1,
    phrase: "Ya no hay hormigas",
    rating: 5,
    date: "2026-10-30",
    visit: visit(["luis-cantu"], ["fire-ant-treatment"], "seguin"),
    assumes: "customer names are compared with accents folded (Lucía on Google, Lucia in the jobs)",
  },
  {
    file: G1,
    phrase: "Bit pricey for a spray",
    rating: 3,
    date: "2026-11-10",
    visit: visit(["wade-pruitt"], ["general-pest-control"], "san-marcos"),
  },
  {
    file: G2,
    phrase: "four rental units",
    rating: 5,
    date: "2026-10-29",
    visit: visit(["margaret-schulte", "wade-pruitt"], ["bed-bug-heat-treatment"], "canyon-lake"),
  },
  {
    file: G2,
    phrase: "Roof rats in the attic",
    rating: 5,
    date: "2026-10-21",
    visit: visit(["wade-pruitt"], ["rodent-exclusion"], "new-braunfels"),
    assumes: "the window is shorter than 128 days, so her June visit does not compete",
  },
  {
    file: G1,
    phrase: "got the wasp nest off",
    rating: 5,
    date: "2026-11-05",
    visit: visit(["kristen-dahl"], ["wasp-and-bee-removal"], "schertz"),
  },
  {
    file: G1,
    phrase: "THE YOUNG LADY (MAGGIE)",
    rating: 4,
    date: "2026-11-14",
    visit: visit(["margaret-schulte"], ["termite-treatment"], "canyon-lake"),
    assumes: "a middle initial is dropped when names are compared (Harold W. Jenkins in the jobs)",
  },
  {
    file: FORMS,
    phrase: "knocked down all the spider webs",
    rating: 5,
    date: "2026-11-13",
    visit: visit(["luis-cantu"], ["general-pest-control"], "seguin"),
  },
  {
    file: FORMS,
    phrase: "Fire ant mounds gone in about 10 days",
    rating: 5,
    date: "2026-10-16",
    visit: visit(["raymond-okafor"], ["fire-ant-treatment"], "seguin"),
  },
  {
    file: FORMS,
    phrase: "The grandkids were getting bit",
    rating: 5,
    date: "2026-11-21",
    visit: visit(["kristen-dahl"], ["fire-ant-treatment"], "schertz"),
    assumes: "phones are compared by their digits (210.555.0149 against (210) 555-0149)",
  },
  {
    file: EXCEL,
    phrase: "eating us alive on the back deck",
    rating: 5,
    date: "2026-11-16",
    visit: visit(["raymond-okafor"], ["mosquito-control"], "san-marcos"),
  },
  {
    file: EXCEL,
    phrase: "No more mice in the pantry",
    rating: 5,
    date: "2026-10-30",
    visit: visit(["margaret-schulte"], ["rodent-exclusion", "general-pest-control"], "canyon-lake"),
  },
  {
    file: EU,
    phrase: "found the scorpion nest behind the shed",
    rating: 5,
    date: "2026-10-25",
    visit: visit(["raymond-okafor"], ["scorpion-control"], "new-braunfels"),
  },
  {
    file: EU,
    phrase: "she checked every room",
    rating: 5,
    date: "2026-11-18",
    visit: visit(["kristen-dahl"], ["general-pest-control"], "boerne"),
  },
];

export const PENDING: Expected[] = [
  { file: G2, phrase: "cant find a mound", rating: 4, date: "2026-10-08", reason: NO_VISIT },
  { file: G2, phrase: "quick, friendly, fair price", rating: 5, date: "2026-10-12", reason: NO_VISIT },
  { file: G2, phrase: "300 unit self storage", rating: 5, date: "2026-10-26", reason: NO_VISIT },
  { file: G2, phrase: "online booking didn't show", rating: 4, date: "2026-10-17", reason: SEVERAL },
  { file: G1, phrase: "Muy buen trabajo con los alacranes", rating: 5, date: "2026-11-07", reason: NO_VISIT },
  { file: G1, phrase: "NOBODY showed up", rating: 1, date: "2026-10-30", reason: NO_VISIT },
  { file: FORMS, phrase: "only sprayed the front of the house", rating: 3, date: "2026-10-21", reason: NO_VISIT },
  { file: EXCEL, phrase: "came back out at no charge", rating: 4, date: "2026-11-19", reason: NO_VISIT },
  { file: EXCEL, phrase: "Still finding them in the bathtub", rating: 2, date: "2026-09-28", reason: NO_VISIT },
  { file: EU, phrase: "a few came back after the big rain", rating: 4, date: "2026-11-04", reason: NO_VISIT },
];

/** The survey answer that repeats Sandra Whitlock's Google review: the same review from two sources. */
export const DUPLICATED = "four rental units";

/** The Spanish a customer wrote, where Google's comment carries its translation too. */
export const ORIGINALS = {
  lucia: "¡Excelente servicio! Luis fue muy amable y le explicó todo a mi mamá en español. Ya no hay hormigas en el patio.",
  jorge: "Muy buen trabajo con los alacranes, el técnico llegó a tiempo y fue muy respetuoso. Lo recomiendo.",
};

/** A Business Profile Review object, as the fixtures hold them. */
export interface GoogleReview {
  reviewId: string;
  reviewer: { displayName?: string; isAnonymous?: boolean };
  starRating: string;
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment: string; updateTime: string };
}

export function googleReviews(file: string): GoogleReview[] {
  return (JSON.parse(readFileSync(fixture(file), "utf8")) as { reviews: GoogleReview[] }).reviews;
}

/** The Google review whose comment holds `phrase`, or with no comment and that reviewer's name. */
export function googleReview(phrase: string): GoogleReview {
  const all = [...googleReviews(G1), ...googleReviews(G2)];
  const found = all.find((r) => r.comment?.includes(phrase) || (!r.comment && r.reviewer.displayName === phrase));
  if (!found) throw new Error(`no Google review in the fixtures with ${JSON.stringify(phrase)}`);
  return found;
}

/** Ratings without text: two on Google (one anonymous, without a name), one in the survey, one in the sheet. */
export const RATING_ONLY = {
  google: [...googleReviews(G1), ...googleReviews(G2)].filter((r) => !r.comment).map((r) => r.reviewId),
  authors: ["Stephanie Marsh", "Jessica Lowry", "Linda Garza"],
  count: 4,
};

const CSV_FILES = [FORMS, EXCEL, EU, "jobs-export.csv"].map((f) => readFileSync(fixture(f), "utf8"));

/**
 * The customers' emails, phones (as written and as bare digits) and street addresses in the
 * fixtures, none of which may reach DATA_DIR, dist/ or a report.
 */
export function privateDetails(): string[] {
  const all = CSV_FILES.join("\n");
  const emails = all.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? [];
  const phones = all.match(/\(?\b\d{3}\)?[ .-]\d{3}[.-]\d{4}\b/g) ?? [];
  const digits = phones.map((p) => p.replace(/\D/g, ""));
  // The jobs export's "Service address" column: a street number and a street name, never quoted.
  const streets = readFileSync(fixture("jobs-export.csv"), "utf8").match(/(?<=,)\d+ [A-Z][^,\n]*(?=,)/g) ?? [];
  return [...new Set([...emails, ...phones, ...digits, ...streets])];
}
