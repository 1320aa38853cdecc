/**
 * Which column of a CSV holds what: by the usual names survey tools, spreadsheets and
 * field-service software give their columns, or named with `--map field=Header`; else, for a
 * survey's question headers, by content: the column of long free text is the review, the one
 * column of whole numbers 1-5 the rating, the first column of dates the date.
 */
import type { Table } from "./table.ts";
import type { Problem } from "./problems.ts";

export const FIELDS = [
  "id",
  "date",
  "rating",
  "author",
  "text",
  "email",
  "phone",
  "technicians",
  "services",
  "service_area",
  "job",
] as const;
export type Field = (typeof FIELDS)[number];

/** Usual header names by field, compared without case, spaces or punctuation. */
const NAMES: Record<Field, string[]> = {
  id: ["id", "responseid", "reviewid", "submissionid", "entryid", "surveyid", "respondentid"],
  date: [
    "date",
    "submitted",
    "submittedat",
    "submissiondate",
    "datesubmitted",
    "timestamp",
    "created",
    "createdat",
    "completed",
    "completedat",
    "reviewdate",
    "visitdate",
    "jobdate",
    "servicedate",
    "datum",
    "fecha",
    "scheduled",
    "completedon",
  ],
  rating: ["rating", "stars", "starrating", "score", "overallrating", "yourrating", "note", "bewertung", "sterne"],
  author: [
    "name",
    "customer",
    "customername",
    "fullname",
    "yourname",
    "reviewer",
    "reviewername",
    "author",
    "client",
    "clientname",
    "kunde",
  ],
  text: [
    "review",
    "reviewtext",
    "comment",
    "comments",
    "feedback",
    "yourreview",
    "message",
    "text",
    "kommentar",
    "commentaire",
    "comentario",
  ],
  email: ["email", "emailaddress", "youremail", "mail", "customeremail"],
  phone: ["phone", "phonenumber", "mobile", "telephone", "tel", "cell", "customerphone", "telefon"],
  technicians: [
    "technician",
    "technicians",
    "tech",
    "techs",
    "technicianname",
    "servicedby",
    "assignedto",
    "crew",
    "employee",
    "employees",
  ],
  services: [
    "service",
    "services",
    "servicetype",
    "treatment",
    "jobtype",
    "worktype",
    "servicename",
    "lineitems",
    "lineitem",
    "servicesperformed",
    "workperformed",
  ],
  service_area: ["city", "town", "area", "servicearea", "zip", "zipcode", "postalcode", "postcode", "plz", "ort"],
  job: ["job", "jobid", "jobnumber", "workorder", "workorderid", "invoice", "invoicenumber", "visitid"],
};

const key = (header: string) => header.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** `--map field=Header` arguments, checked: every problem into `problems`. */
export function readMaps(maps: string[], problems: Problem[]): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  for (const map of maps) {
    const m = /^([a-z_]+)=(.+)$/.exec(map);
    if (!m || !(FIELDS as readonly string[]).includes(m[1]!)) {
      problems.push({ file: "--map", value: map, expected: `expected field=Header with a field among ${FIELDS.join(", ")}` });
    } else out[m[1] as Field] = m[2]!;
  }
  return out;
}

/** Column index by field: mapped, then by name, then (for the text, rating and date of a survey) by content. */
export function findColumns(
  table: Table,
  maps: Partial<Record<Field, string>>,
  problems: Problem[],
  byContent: readonly Field[],
): Partial<Record<Field, number>> {
  const found: Partial<Record<Field, number>> = {};
  const taken = new Set<number>();
  for (const [field, header] of Object.entries(maps) as [Field, string][]) {
    const at = table.header.findIndex((h) => h === header.trim()) ?? -1;
    const i = at >= 0 ? at : table.header.findIndex((h) => key(h) === key(header));
    if (i < 0)
      problems.push({
        file: table.file,
        field: `--map ${field}`,
        value: header,
        expected: `expected one of the headers: ${table.header.join(", ")}`,
      });
    else ((found[field] = i), taken.add(i));
  }
  for (const field of FIELDS) {
    if (found[field] !== undefined || maps[field]) continue;
    const i = table.header.findIndex((h, i) => !taken.has(i) && NAMES[field].includes(key(h)));
    if (i >= 0) ((found[field] = i), taken.add(i));
  }
  const values = (i: number) => table.rows.map((r) => (r.cells[i] ?? "").trim()).filter(Boolean);
  const free = table.header.map((_, i) => i).filter((i) => !taken.has(i) && values(i).length > 0);
  if (byContent.includes("text") && found.text === undefined) {
    const mean = (i: number) => values(i).reduce((n, v) => n + v.length, 0) / values(i).length;
    const wordy = free.filter((i) => mean(i) >= 20 && values(i).some((v) => /\s/.test(v))).sort((a, b) => mean(b) - mean(a));
    if (wordy[0] !== undefined) ((found.text = wordy[0]), taken.add(wordy[0]));
  }
  if (byContent.includes("rating") && found.rating === undefined) {
    const stars = free.filter((i) => !taken.has(i) && values(i).every((v) => /^[1-5]$/.test(v)));
    if (stars.length === 1) ((found.rating = stars[0]), taken.add(stars[0]!));
    else if (stars.length > 1) {
      const names = stars.map((i) => `"${table.header[i]}"`).join(", ");
      problems.push({
        file: table.file,
        field: "rating",
        expected: `several columns hold 1-5 ratings (${names}): name one with --map rating=Header`,
      });
    }
  }
  if (byContent.includes("date") && found.date === undefined) {
    const dated = free.find((i) => !taken.has(i) && values(i).every((v) => /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}/.test(v)));
    if (dated !== undefined) ((found.date = dated), taken.add(dated));
  }
  return found;
}

export function describeMissing(field: Field): string {
  const what = field === "author" ? "reviewer's name" : field;
  return `no column holds the ${what}: expected a header such as ${NAMES[field].slice(0, 4).join(", ")}, or --map ${field}=Header`;
}
