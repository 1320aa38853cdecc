/** The one sentence every reader of the insights gets about the reviews they leave out for their language. */
import { count } from "./html.ts";

/** insights.json's `not_analysed`, as far as the sentence needs it. */
export interface NotAnalysed {
  review_count: number;
  languages: readonly { name: string; review_count: number }[];
}

const reviews = (n: number) => `${count(n)} ${n === 1 ? "review" : "reviews"}`;

/**
 * "2 reviews in Spanish are not analysed.", "3 reviews are not analysed: 2 in Spanish and 1 in
 * another language."; nothing when every review is read.
 */
export function notAnalysedSentence(n: NotAnalysed): string | undefined {
  const [first, ...others] = n.languages;
  if (!first || n.review_count === 0) return undefined;
  const verb = n.review_count === 1 ? "is" : "are";
  if (!others.length) return `${reviews(n.review_count)} in ${first.name} ${verb} not analysed.`;
  const parts = n.languages.map((l) => `${count(l.review_count)} in ${l.name}`);
  return `${reviews(n.review_count)} ${verb} not analysed: ${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}.`;
}
