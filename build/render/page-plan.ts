/**
 * Which review pages a build must write, from the months and what the cache says the previous
 * dist/'s pages show: a pure plan, which build/render/pages.ts reads the disk for and applies to it.
 */
import type { PublicReview } from "../../core/schema/public.ts";
import { idsOf, linesOf, reviewsOf, type Month } from "../outputs/months.ts";

/**
 * The cache's part: the dist/ it describes (its manifest's hash), what its pages share, and each
 * month's lines they show (MonthPart's content).
 */
export interface KeptPages {
  dist: string;
  shared: string;
  months: Record<string, string>;
  /** The reviews/ folder's time and inode: a file added or removed there changes its time. */
  folder: Folder;
}

export interface Folder {
  mtimeMs: number;
  ino: number;
}

/** What the previous dist/ is, as build/render/pages.ts finds it: each part missing when it is not there. */
export interface PagesSeen {
  /** The cache's part for the pages of the dist/ it last built. */
  kept?: KeptPages;
  /** A hash of the previous dist/'s manifest. */
  dist?: string;
  /** Its reviews/ folder, when it is one. */
  folder?: Folder;
}

/**
 * Every page written into a new folder, or the previous dist/'s pages carried over with `changed`
 * written and `removed` removed (`removed` undefined: found by listing the folder).
 */
export type PagesPlan = { carry: false } | { carry: true; changed: PublicReview[]; removed?: string[] };

/**
 * The plan for the months' pages, sharing `shared` (a hash of what every page shows beside its
 * review, and of their code). The previous pages are carried over when the cache describes the
 * previous dist/ as it is (its manifest's hash) with pages that share the same, and few changed;
 * otherwise every page is written anew (writing over existing files is about ten times slower than
 * into a new folder: docs/benchmarks.md, "What the code does for speed").
 */
export function planPages(months: readonly Month[], shared: string, { kept, dist, folder }: PagesSeen): PagesPlan {
  if (!kept || !dist || !folder || kept.dist !== dist || kept.shared !== shared) return { carry: false };
  const folderAsKept = folder.mtimeMs === kept.folder.mtimeMs && folder.ino === kept.folder.ino;
  const { changed, removed } = pagesToChange(months, kept.months, folderAsKept);
  return changed ? { carry: true, changed, removed } : { carry: false };
}

/** What the cache keeps of the dist/ just built, for the next build's plan. */
export function keptPages(months: readonly Month[], shared: string, dist: string, folder: Folder): KeptPages {
  return {
    dist,
    shared,
    months: Object.fromEntries(months.map((m) => [m.part.month, m.part.content])),
    folder: { mtimeMs: folder.mtimeMs, ino: folder.ino },
  };
}

/** Bring the previous pages over when at most this share of them changed. */
export const CARRY_AT_MOST = 0.1;

export interface PageChanges {
  /** The pages to write into the previous dist/'s pages; undefined when too many changed (write every page anew). */
  changed?: PublicReview[];
  /**
   * The pages to remove from the previous dist/'s, when known without listing its folder: no file
   * came or went there since the last build (`folderAsKept`), and every month whose pages change
   * had its previous part.
   */
  removed?: string[];
}

/**
 * `shownBefore`: per month, the content (MonthPart.content) of the part the previous pages show.
 * A month whose part is that content has no page to write; of the others, only the reviews whose
 * line changed, when the month's previous part is the one the pages show, or every review.
 */
export function pagesToChange(months: readonly Month[], shownBefore: Readonly<Record<string, string>>, folderAsKept: boolean): PageChanges {
  const changed: PublicReview[] = [];
  // The pages of the months that change, before and after, to know which go without listing the folder.
  let listed = folderAsKept && Object.keys(shownBefore).every((m) => months.some((x) => x.part.month === m));
  const before = new Set<string>();
  const after = new Set<string>();
  for (const month of months) {
    const { part, previous } = month;
    const shown = shownBefore[part.month];
    if (shown === part.content) continue;
    // The month's pages as the previous part made them, when that is the part they show;
    // otherwise all of them are written.
    const known = previous && previous.content === shown;
    const previousIds = known ? idsOf(previous) : [];
    const previousLines = known ? linesOf(previous) : [];
    const lines = known ? new Map(previousIds.map((id, i) => [id, previousLines[i]!])) : undefined;
    for (const id of previousIds) before.add(id);
    if (!known) listed &&= shown === undefined;
    const now = linesOf(part);
    reviewsOf(month).forEach((r, i) => {
      after.add(r.id);
      if (lines?.get(r.id) !== now[i]) changed.push(r);
    });
  }
  const total = months.reduce((n, m) => n + m.part.count, 0);
  return {
    changed: changed.length <= CARRY_AT_MOST * total ? changed : undefined,
    removed: listed ? [...before].filter((id) => !after.has(id)) : undefined,
  };
}
