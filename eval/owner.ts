/**
 * `npm run eval:owner`: the owner report (insights/owner.ts) built for each written business as
 * the build builds it (the model's mentions, the months' figures, the report), against what the
 * labels imply (owner-truth.ts): the technicians and services flagged as well below the rest, the
 * recurring complaints, and each technician's top complaint. On the test businesses by default
 * (`-- --set train|validation|all`), read by the build's default model (`-- --model combined|linear`
 * for another); `-- --list` names each difference (not on the test set).
 */
import { ASPECTS } from "../insights/sentiment/aspects.ts";
import { reviewMentions } from "../insights/sentiment/mentions.ts";
import { INSIGHTS_MODELS, type InsightsModel } from "../core/settings.ts";
import type { Report } from "../insights/owner.ts";
import { aggregateOfCounts } from "../core/dataset.ts";
import type { PublicBusiness, PublicReview } from "../core/schema/public.ts";
import { mergedInsights } from "../build/outputs/insights.ts";
import { businessesOf } from "./by-business.ts";
import { PARTS, type Part, type WrittenBusiness } from "./businesses.ts";
import { labelledFindings, type OwnerFindings } from "./owner-truth.ts";
import { choice } from "./options.ts";

const BASE = "https://example.test";

/** The owner report of a written business, as the build makes it with INSIGHTS_MODEL `model`. */
export async function reportOf(b: WrittenBusiness, model: InsightsModel = "learned"): Promise<Report> {
  const reviews: PublicReview[] = b.reviews
    .map((r) => ({
      id: r.id,
      url: `${BASE}/reviews/${r.id}/`,
      date: r.date,
      rating: r.rating,
      author: r.author,
      text: r.text,
      technicians: r.technicians,
      services: r.services,
    }))
    .sort((x, y) => (x.date === y.date ? (x.id < y.id ? 1 : -1) : x.date < y.date ? 1 : -1));
  const staff = b.technicians.filter((t) => t.role !== "office").map((t) => ({ id: t.id, name: t.name, aliases: t.aliases }));
  const business: PublicBusiness = {
    name: b.business.name,
    description: b.business.region,
    opening_hours: [],
    url: BASE,
    updated: "2026-01-01T00:00:00Z",
    services: b.services.map((s) => ({ id: s.id, name: s.name, description: s.name })),
    technicians: staff,
    service_areas: [],
  };
  const found = await reviewMentions(reviews, model);
  const counts = [1, 2, 3, 4, 5].map((s) => reviews.filter((r) => r.rating === s).length);
  const context = { baseUrl: BASE, business, overall: aggregateOfCounts(counts), updated: business.updated, model };
  return mergedInsights(reviews, found, { name: business.name, technicians: staff, service_areas: [] }, context).owner;
}

const aspectId = (name: string) => ASPECTS.find((a) => name.toLowerCase().startsWith(a.name.toLowerCase()))?.id ?? `? ${name}`;

/** What a report found, in the labels' terms (ids), read from what it prints. */
export function reportFindings(b: WrittenBusiness, report: Report): OwnerFindings & { trends: number } {
  const below = new Set<string>();
  let trends = 0;
  for (const f of report.flags) {
    // A level flag says "against"; a trend says "down from".
    if (!/against/.test(f.text)) {
      trends++;
      continue;
    }
    const t = b.technicians.find((x) => f.text.startsWith(`${x.name}'s`));
    const s = b.services.find((x) => f.text.startsWith(x.name));
    if (t) below.add(`technician:${t.id}`);
    else if (s) below.add(`service:${s.id}`);
  }
  const recurring = new Map(report.complaints.map((c) => [aspectId(c.aspect), c.unhappy]));
  const complaints = new Map(
    b.technicians.map((t) => {
      const row = report.technicians.find((x) => x.name === t.name);
      return [t.id, row?.complaints ? [aspectId(row.complaints)] : []];
    }),
  );
  return { below, recurring, complaints, trends };
}

interface Tally {
  flagged: number;
  flagsRight: number;
  shouldFlag: number;
  trends: number;
  listed: number;
  listedRight: number;
  recurring: number;
  topRight: number;
  businesses: number;
  technicians: number;
  technicianRight: number;
  named: number;
  namedRight: number;
  shouldName: number;
  notTheirs: number;
}

/** One business's report against its labels, added to the tally; the differences as lines. */
export function compare(b: WrittenBusiness, got: ReturnType<typeof reportFindings>, want: OwnerFindings, t: Tally): string[] {
  const diff: string[] = [];
  t.flagged += got.below.size;
  t.shouldFlag += want.below.size;
  t.trends += got.trends;
  for (const f of got.below) if (want.below.has(f)) t.flagsRight++;
  for (const f of got.below) if (!want.below.has(f)) diff.push(`flagged, the labels do not: ${f}`);
  for (const f of want.below) if (!got.below.has(f)) diff.push(`not flagged, the labels do: ${f}`);
  t.listed += got.recurring.size;
  t.recurring += want.recurring.size;
  for (const a of got.recurring.keys()) if (want.recurring.has(a)) t.listedRight++;
  for (const [a, n] of want.recurring) if (!got.recurring.has(a)) diff.push(`recurring complaint not listed: ${a} (${n} unhappy)`);
  for (const a of got.recurring.keys()) if (!want.recurring.has(a)) diff.push(`listed, the labels have fewer unhappy: ${a}`);
  const most = Math.max(0, ...want.recurring.values());
  const top = [...got.recurring.keys()][0];
  t.businesses++;
  if ((most === 0 && !top) || (top && want.recurring.get(top) === most)) t.topRight++;
  else diff.push(`top complaint ${top ?? "none"}, the labels' ${[...want.recurring].filter(([, n]) => n === most).map(([a]) => a)}`);
  for (const [id, aspects] of want.complaints) {
    const [mine] = got.complaints.get(id) ?? [];
    t.technicians++;
    if (mine) t.named++;
    if (aspects.length) t.shouldName++;
    if (mine && aspects.includes(mine)) t.namedRight++;
    if ((!mine && !aspects.length) || (mine && aspects.includes(mine))) t.technicianRight++;
    else diff.push(`${id}: complaints most about ${mine ?? "nothing"}, the labels' ${aspects.join("/") || "nothing"}`);
    if (
      mine &&
      !aspects.includes(mine) &&
      !b.reviews.some((r) =>
        r.labels.some((l) => l.mentions.some((m) => m.technician === id && m.aspect === mine && m.polarity === "negative")),
      )
    )
      t.notTheirs++;
  }
  return diff;
}

const share = (right: number, of: number) => `${right}/${of}${of ? ` (${((right / of) * 100).toFixed(0)}%)` : ""}`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const set = choice(args, "set", [...PARTS, "all"], "test");
  const list = args.includes("--list");
  const model = choice(args, "model", INSIGHTS_MODELS, "learned");
  if (list && set === "test") throw new Error("--list: not on the test businesses (read once per model choice, never tuned on)");
  const t = Object.fromEntries(
    [
      "flagged",
      "flagsRight",
      "shouldFlag",
      "trends",
      "listed",
      "listedRight",
      "recurring",
      "topRight",
      "businesses",
      "technicians",
      "technicianRight",
      "named",
      "namedRight",
      "shouldName",
      "notTheirs",
    ].map((k) => [k, 0]),
  ) as unknown as Tally;
  for (const b of businessesOf(set)) {
    const diff = compare(b, reportFindings(b, await reportOf(b, model)), labelledFindings(b), t);
    if (list) console.log(`${b.slug}:${diff.map((d) => `\n  ${d}`).join("") || " as the labels"}`);
  }
  console.log(`owner report (INSIGHTS_MODEL ${model}) on the ${set} businesses (${t.businesses}), against the labels:`);
  console.log(
    `  needs attention, well below the rest: ${share(t.flagsRight, t.flagged)} flags right, ${share(t.flagsRight, t.shouldFlag)} found`,
  );
  console.log(`  needs attention, falling (not in the labels' comparison): ${t.trends} flags`);
  console.log(`  recurring complaints: ${share(t.listedRight, t.listed)} listed right, ${share(t.listedRight, t.recurring)} found`);
  console.log(`  top complaint right: ${share(t.topRight, t.businesses)}`);
  console.log(`  technicians' "complaints most about" right (named or none): ${share(t.technicianRight, t.technicians)}`);
  console.log(
    `    named ${share(t.namedRight, t.named)} right; of the labels' ${t.shouldName}, ${share(t.namedRight, t.shouldName)} found`,
  );
  console.log(`  technicians named for a complaint no label credits to them: ${t.notTheirs}`);
}
