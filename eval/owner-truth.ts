/**
 * What a written business's labels (eval/labelling-guide.md) say the owner report should find:
 * the technicians and services whose reviews average well below the rest (by the report's own
 * rule, insights/below-rest.ts), the aspects with RECURRING unhappy customers, and what each
 * technician's complaints are most about. Stars and tags are the review's; aspects, polarity and
 * whose visit a mention was are the labels', never the model's.
 */
import { belowTheRest, type StarCounts } from "../insights/below-rest.ts";
import { COMPLAINED, RECURRING } from "../insights/owner.ts";
import type { WrittenBusiness } from "./businesses.ts";

export interface OwnerFindings {
  /** "technician:<id>" or "service:<id>": well below the rest. */
  below: Set<string>;
  /** Aspect id → unhappy customers, for the aspects with RECURRING or more. */
  recurring: Map<string, number>;
  /** Technician id → the aspects tied for their most complaints (empty: fewer than COMPLAINED). */
  complaints: Map<string, string[]>;
}

const counts = (ratings: readonly number[]): StarCounts => {
  const c = [0, 0, 0, 0, 0];
  for (const r of ratings) c[r - 1]!++;
  return c;
};

/** The findings the labels imply for one business. */
export function labelledFindings(b: WrittenBusiness): OwnerFindings {
  const staff = b.technicians.filter((t) => t.role !== "office");
  // A technician's reviews: those that tag them or that the labels credit to them.
  const whose = (r: WrittenBusiness["reviews"][number]) =>
    new Set([...r.technicians, ...r.labels.flatMap((l) => l.mentions.flatMap((m) => (m.technician ? [m.technician] : [])))]);
  const below = new Set<string>();
  const withTechnicians = b.reviews.filter((r) => whose(r).size > 0);
  for (const t of staff) {
    const [own, rest] = [withTechnicians.filter((r) => whose(r).has(t.id)), withTechnicians.filter((r) => !whose(r).has(t.id))];
    if (belowTheRest(counts(own.map((r) => r.rating)), counts(rest.map((r) => r.rating)))) below.add(`technician:${t.id}`);
  }
  for (const s of b.services) {
    const [own, rest] = [b.reviews.filter((r) => r.services.includes(s.id)), b.reviews.filter((r) => !r.services.includes(s.id))];
    if (belowTheRest(counts(own.map((r) => r.rating)), counts(rest.map((r) => r.rating)))) below.add(`service:${s.id}`);
  }
  // A customer is unhappy with an aspect when their review says more bad than good of it (insights/faq.ts's rule).
  const unhappy = new Map<string, number>();
  for (const r of b.reviews) {
    const balance = new Map<string, number>();
    for (const m of r.labels.flatMap((l) => l.mentions))
      balance.set(m.aspect, (balance.get(m.aspect) ?? 0) + (m.polarity === "positive" ? 1 : m.polarity === "negative" ? -1 : 0));
    for (const [aspect, n] of balance) if (n < 0) unhappy.set(aspect, (unhappy.get(aspect) ?? 0) + 1);
  }
  const recurring = new Map([...unhappy].filter(([, n]) => n >= RECURRING));
  // A technician's complaints: the reviews with a negative mention credited to them, once per
  // review, whatever the stars (a labelled complaint in a 4-star review is one; the report keeps
  // to 3 stars or fewer because the model misreads praise there).
  const complaints = new Map<string, string[]>();
  for (const t of staff) {
    const byAspect = new Map<string, number>();
    for (const r of b.reviews) {
      const aspects = new Set(
        r.labels.flatMap((l) => l.mentions.filter((m) => m.polarity === "negative" && m.technician === t.id).map((m) => m.aspect)),
      );
      for (const a of aspects) byAspect.set(a, (byAspect.get(a) ?? 0) + 1);
    }
    const most = Math.max(0, ...byAspect.values());
    complaints.set(t.id, most >= COMPLAINED ? [...byAspect].filter(([, n]) => n === most).map(([a]) => a) : []);
  }
  return { below, recurring, complaints };
}
