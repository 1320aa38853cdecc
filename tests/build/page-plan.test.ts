/** The pure plan of which review pages a build writes (build/render/page-plan.ts), on months planned from real data. */
import { describe, expect, it } from "vitest";
import { BuildCache } from "../../build/cache/cache.ts";
import { loadData } from "../../build/load/load.ts";
import { planMonths, reviewsOf, type Month } from "../../build/outputs/months.ts";
import { keptPages, pagesToChange, planPages } from "../../build/render/page-plan.ts";
import { review, smallData, tempDir } from "../../harness/data.ts";

const BASE_URL = "https://reviews.plan.example";

/** The months of these reviews as a build with a cache plans them (their parts' content is set). */
async function months(reviews: unknown[]): Promise<Month[]> {
  const cache = await BuildCache.open(await tempDir());
  return planMonths(await loadData(await smallData(reviews)), BASE_URL, { model: "combined" as const, names: [], technicians: [] }, cache);
}

const shown = (ms: readonly Month[]) => Object.fromEntries(ms.map((m) => [m.part.month, m.part.content]));
const ids = (plan: { changed?: { id: string }[] }) => plan.changed?.map((r) => r.id).sort();

describe("the review pages a build writes", () => {
  // Twelve months of ten reviews: one month's pages are a twelfth of them.
  const many = Array.from({ length: 120 }, (_, i) =>
    review({
      id: `r-${String(i).padStart(3, "0")}`,
      date: `2024-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + Math.floor(i / 12)).padStart(2, "0")}`,
    }),
  );

  it("are none when every month's pages show its part, and no page goes", async () => {
    const ms = await months(many);
    expect(pagesToChange(ms, shown(ms), true)).toEqual({ changed: [], removed: [] });
  });

  it("are a month's every page when its pages showed another part the build no longer has", async () => {
    const ms = await months(many);
    const before = { ...shown(ms), "2024-03": "something else" };
    const plan = pagesToChange(ms, before, true);
    expect(ids(plan)).toEqual(
      reviewsOf(ms.find((m) => m.part.month === "2024-03")!)
        .map((r) => r.id)
        .sort(),
    );
    expect(ids(plan)).toHaveLength(10);
    // The month's previous pages are not known: which files go is found by listing the folder.
    expect(plan.removed).toBeUndefined();
  });

  it("are those of a month not shown before, and the pages to remove are known without listing the folder", async () => {
    const ms = await months([...many, review({ id: "r-new", date: "2025-05-01" })]);
    const before = Object.fromEntries(Object.entries(shown(ms)).filter(([m]) => m !== "2025-05"));
    expect(pagesToChange(ms, before, true)).toEqual({ changed: [expect.objectContaining({ id: "r-new" })], removed: [] });
    expect(pagesToChange(ms, before, false).removed).toBeUndefined();
  });

  it("are all written anew (no plan of changes) when more than a tenth of them change", async () => {
    const ms = await months(many);
    const before = { ...shown(ms), "2024-03": "other", "2024-04": "other" };
    expect(pagesToChange(ms, before, true).changed).toBeUndefined();
  });
});

describe("the plan of the review pages", () => {
  const many = Array.from({ length: 40 }, (_, i) =>
    review({
      id: `p-${String(i).padStart(3, "0")}`,
      date: `2024-${String(1 + (i % 4)).padStart(2, "0")}-${String(1 + Math.floor(i / 4)).padStart(2, "0")}`,
    }),
  );
  const folder = { mtimeMs: 1_700_000_000_000, ino: 42 };

  it("carries the previous pages over only when the cache describes the dist/ and the folder that are there, with pages that share the same", async () => {
    const ms = await months(many);
    const kept = keptPages(ms, "shared", "dist-hash", folder);
    expect(planPages(ms, "shared", { kept, dist: "dist-hash", folder })).toEqual({ carry: true, changed: [], removed: [] });
    // No cache part, no previous dist/ (or another one), no reviews/ folder, or pages that showed another context or code: all written anew.
    expect(planPages(ms, "shared", { dist: "dist-hash", folder })).toEqual({ carry: false });
    expect(planPages(ms, "shared", { kept, folder })).toEqual({ carry: false });
    expect(planPages(ms, "shared", { kept, dist: "another dist", folder })).toEqual({ carry: false });
    expect(planPages(ms, "shared", { kept, dist: "dist-hash" })).toEqual({ carry: false });
    expect(planPages(ms, "other code", { kept, dist: "dist-hash", folder })).toEqual({ carry: false });
  });

  it("lists the folder to find the pages to remove when a file came or went there since", async () => {
    const ms = await months(many);
    const kept = keptPages(ms, "shared", "dist-hash", folder);
    expect(planPages(ms, "shared", { kept, dist: "dist-hash", folder: { ...folder, mtimeMs: folder.mtimeMs + 1 } })).toEqual({
      carry: true,
      changed: [],
      removed: undefined,
    });
    expect(planPages(ms, "shared", { kept, dist: "dist-hash", folder: { ...folder, ino: 43 } })).toEqual({
      carry: true,
      changed: [],
      removed: undefined,
    });
  });
});
