/**
 * Domain phrases: multi-word expressions whose polarity is not the sum of their words ("not a
 * single ant since", "the ants came back", "on time", "worth every penny"). Each pattern is
 * matched against a sentence's lower-cased words joined by single spaces; a matched phrase is one
 * opinion with its own valence, and its words (negators included) are not read again.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
/** A phrase's pattern may name a shared part: `{PEST}`, `{NOT}`, `{ME}`, `{NUM}` (the file's parts). */
const PhrasesFile = z.strictObject({
  parts: z.record(z.string().regex(/^[A-Z]+$/), z.string().min(1)),
  /** [pattern, valence] in groups, each with why it is there where that needs saying. */
  groups: z.array(
    z.strictObject({ why: z.string().optional(), phrases: z.array(z.tuple([z.string().min(1), z.number().min(-4).max(4)])).min(1) }),
  ),
});

const FILE = PhrasesFile.parse(JSON.parse(readFileSync(new URL("./phrases.json", import.meta.url), "utf8")));

/** The pests a customer names, as a pattern (aspects.ts uses it too). */
export const PEST = FILE.parts.PEST!;

/** A pattern with each `{NAME}` replaced by the shared part of that name; `file` names the data file in errors. */
export function withParts(pattern: string, parts: Record<string, string>, file: string): string {
  return pattern.replace(/\{([A-Z]+)\}/g, (_, name: string) => {
    if (parts[name] === undefined) throw new Error(`${file}: no part named {${name}}`);
    return parts[name];
  });
}

/** [pattern, valence]: earlier patterns win where matches overlap. */
const PATTERNS: [string, number][] = FILE.groups
  .flatMap((g) => g.phrases)
  .map(([pattern, valence]) => [withParts(pattern, FILE.parts, "phrases.json"), valence]);

/**
 * All patterns as one sticky regular expression, one capturing group each, tried at each word's
 * start: the leftmost phrase wins, and at the same place the one listed first.
 */
export const PHRASES = compile(PATTERNS);

function compile(patterns: [string, number][]): { pattern: RegExp; valences: number[] } {
  for (const [source] of patterns) {
    if (/(?<!\\)\((?!\?)/.test(source)) throw new Error(`phrase pattern has a capturing group: ${source}`);
  }
  return {
    pattern: new RegExp(`(?<![\\w'])(?:${patterns.map(([source]) => `(${source})`).join("|")})(?![\\w'])`, "y"),
    valences: patterns.map(([, valence]) => valence),
  };
}
