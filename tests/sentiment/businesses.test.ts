/**
 * The written businesses (eval/businesses/, eval/labelling-guide.md): their files check, a broken
 * file is named by file, review and field, and `npm run eval` scores a reading per (review, aspect)
 * as the guide says: right aspect and polarity, by star band, whose visit, reviews not in English.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../harness/data.ts";
import { secondWithOffsets, withOffsets } from "../../eval/business-offsets.ts";
import { fromLabels, precision, recall, recallRight, score, verdicts, type Finding } from "../../eval/business-score.ts";
import { BUSINESSES, BusinessError, checkAll, readBusiness, readSplits, type Review } from "../../eval/businesses.ts";
import { scoreSecond } from "../../eval/by-business.ts";
import { runCommand } from "../helpers/run.ts";

const ASPECTS = ["punctuality", "safety", "price"];

/** A copy of the written businesses to break. */
async function copy(): Promise<string> {
  const root = join(await tempDir(), "businesses");
  await cp(BUSINESSES, root, { recursive: true });
  return root;
}

async function editFirstReview(root: string, slug: string, change: (r: Record<string, unknown>) => void): Promise<void> {
  const file = join(root, slug, "reviews.jsonl");
  const [first, ...rest] = (await readFile(file, "utf8")).trim().split("\n");
  const r = JSON.parse(first!);
  change(r);
  await writeFile(file, [JSON.stringify(r), ...rest].join("\n") + "\n");
}

const review = (id: string, rating: number, language = "en"): Review => ({
  id,
  date: "2026-01-01",
  rating,
  author: "A",
  source: "google",
  language,
  text: "x",
  technicians: ["t-a"],
  services: [],
  labels: [],
});
const said = (aspect: string, polarity: Finding["polarity"], technicians: string[] = []): Finding => ({ aspect, polarity, technicians });

describe("the written businesses' files", () => {
  it("every business and splits.json check", () => {
    expect(checkAll()).toEqual([]);
    const splits = readSplits();
    expect(Object.values(splits).flat().length).toBeGreaterThanOrEqual(2);
  });

  it("name the file, the review and the field of each problem", async () => {
    const root = await copy();
    const file = join(root, "bayou-shield", "reviews.jsonl");
    const problemsOf = () => {
      try {
        readBusiness("bayou-shield", root);
        return [];
      } catch (e) {
        return (e as BusinessError).problems;
      }
    };
    const first = readBusiness("bayou-shield", root).reviews[0]!;
    const { start, end } = first.labels[0]!;
    await editFirstReview(root, "bayou-shield", (r) => {
      const labels = r.labels as { start: number; mentions: unknown[] }[];
      labels[0]!.start += 1;
      labels[1]!.mentions = [{ aspect: "office", polarity: "negative", technician: "o-darlene" }];
    });
    const cut = JSON.stringify(first.text.slice(start + 1, end));
    expect(problemsOf()).toEqual([
      `${file}:1: ${first.id}: labels.0: text.slice(${start + 1}, ${end}) is ${cut}, not the sentence`,
      `${file}:1: ${first.id}: labels.0: ${JSON.stringify(first.text.slice(0, start + 1))} is in no sentence`,
      `${file}:1: ${first.id}: labels.1.mentions.0.technician: o-darlene is office staff, never credited`,
    ]);
    await editFirstReview(root, "bayou-shield", (r) => {
      (r.labels as { mentions: unknown[] }[])[1]!.mentions = [{ aspect: "vibes", polarity: "positive", technician: null }];
    });
    expect(problemsOf()).toContainEqual(expect.stringMatching(new RegExp(`^${file}:1: labels\\.1\\.mentions\\.0\\.aspect: `)));
  });

  it("name a business that is in no part of splits.json", async () => {
    const root = await copy();
    await writeFile(join(root, "splits.json"), JSON.stringify({ train: [], validation: [], test: ["bayou-shield"] }));
    expect(() => readSplits(root)).toThrow(`${join(root, "splits.json")}: saguaro-sentry is in no part`);
  });

  it("get their offsets from their sentences, in order, and name a sentence not in the text", () => {
    const text = "On time. Ants gone! On time.";
    const { review: r, problems } = withOffsets({
      id: "x-1",
      text,
      labels: [{ sentence: "On time." }, { sentence: "Ants gone!" }, { sentence: "On time." }, { sentence: "Rude." }],
    });
    expect(r.labels!.slice(0, 3).map((l) => [l.start, l.end])).toEqual([
      [0, 8],
      [9, 19],
      [20, 28],
    ]);
    expect(problems).toEqual(['x-1: labels.3: "Rude." is not in the text after offset 28']);
  });

  it("give a second reader's lines their offsets from the review of the same id, and name an unknown id", () => {
    const texts = new Map([["x-1", "Late. Rude."]]);
    const { lines, problems } = secondWithOffsets(
      [
        { id: "x-1", labels: [{ sentence: "Late." }, { sentence: "Rude." }] },
        { id: "x-9", labels: [{ sentence: "Late." }] },
      ],
      texts,
    );
    expect(lines[0]!.labels!.map((l) => [l.start, l.end])).toEqual([
      [0, 5],
      [6, 11],
    ]);
    expect(lines[0]).not.toHaveProperty("text");
    expect(problems).toEqual(["x-9: no review with this id in reviews.jsonl"]);
  });
});

describe("scoring per (review, aspect)", () => {
  it("gives each aspect of a review one verdict: mixed when both signs, else the sign over neutral", () => {
    const v = verdicts([said("price", "positive"), said("price", "negative"), said("safety", "neutral"), said("safety", "negative")]);
    expect(Object.fromEntries(v)).toEqual({ price: "mixed", safety: "negative" });
  });

  it("counts a wrong polarity against precision and recall with polarity, not against recall", () => {
    const reviews = [review("a", 1), review("b", 5)];
    const gold: Record<string, Finding[]> = { a: [said("safety", "negative")], b: [said("punctuality", "positive")] };
    const got: Record<string, Finding[]> = {
      a: [said("safety", "neutral")],
      b: [said("punctuality", "positive"), said("price", "positive")],
    };
    const s = score(
      reviews,
      (r) => gold[r.id]!,
      (r) => got[r.id]!,
      ASPECTS,
    );
    const all = s.groups.get("all")!;
    expect([precision(all), recall(all), recallRight(all)]).toEqual([1 / 3, 1, 1 / 2]);
    expect(precision(s.groups.get("1–3 stars")!)).toBe(0);
    expect(recallRight(s.groups.get("4–5 stars")!)).toBe(1);
    expect(precision(s.groups.get("price")!)).toBe(0);
  });

  it("counts a complaint credited to a colleague, and a review naming a technician it was not tagged with", () => {
    const r = { ...review("a", 2), technicians: ["t-a"] };
    const s = score(
      [r],
      () => [said("thoroughness", "negative", ["t-b"]), said("punctuality", "positive", ["t-a"])],
      () => [said("thoroughness", "negative", ["t-a"]), said("punctuality", "positive", ["t-a"])],
      ASPECTS,
    );
    expect(s.whose).toMatchObject({ credited: 2, right: 1, someoneElse: 1, complaintsToSomeoneElse: 1, untagged: 1, untaggedFound: 0 });
  });

  it("leaves reviews not in English out of the figures and counts them", () => {
    const s = score(
      [review("a", 1, "es"), review("b", 5)],
      () => [said("price", "negative")],
      () => [],
      ASPECTS,
    );
    expect(s.groups.get("all")!.gold).toBe(1);
    expect([...s.other.languages]).toEqual([["es", 1]]);
    expect(s.other.counts).toMatchObject({ gold: 1, found: 0 });
  });

  it("scores a business's own labels as a reading at 100%, and a second reader against the first", async () => {
    const root = await copy();
    const b = readBusiness("saguaro-sentry", root);
    const lines = b.reviews.map((r) => JSON.stringify({ id: r.id, labels: r.labels }));
    await writeFile(join(root, "saguaro-sentry", "labels.second.jsonl"), lines.join("\n") + "\n");
    const same = scoreSecond([readBusiness("bayou-shield", root), readBusiness("saguaro-sentry", root)])!;
    const all = same.groups.get("all")!;
    expect([precision(all), recall(all), recallRight(all)]).toEqual([1, 1, 1]);
    expect(same.reviews).toBe(b.reviews.length);
    const flipped = b.reviews.find((r) => r.language === "en" && fromLabels(r.labels).some((m) => m.polarity === "positive"))!;
    const second = b.reviews.map((r) =>
      JSON.stringify({
        id: r.id,
        labels:
          r === flipped ? r.labels.map((l) => ({ ...l, mentions: l.mentions.map((m) => ({ ...m, polarity: "negative" })) })) : r.labels,
      }),
    );
    await writeFile(join(root, "saguaro-sentry", "labels.second.jsonl"), second.join("\n") + "\n");
    const other = scoreSecond([readBusiness("saguaro-sentry", root)])!;
    expect(precision(other.groups.get("all")!)).toBeLessThan(1);
    expect(recall(other.groups.get("all")!)).toBe(1);
  });
});

describe("npm run eval", () => {
  const evalRun = (...args: string[]) => runCommand("npm", ["run", "--silent", "eval", "--", ...args]);

  it("prints the test businesses' table for both readings side by side, whose visit and the reviews left out", async () => {
    const run = await evalRun();
    expect(run.code).toBe(0);
    for (const row of [
      "precision, aspect and polarity right",
      "on 1–3 star reviews",
      "recall, any polarity",
      "recall with the right polarity",
    ])
      expect(run.stdout).toMatch(new RegExp(`${row} +\\d+\\.\\d% \\d+/\\d+ +\\d+\\.\\d% \\d+/\\d+`));
    expect(run.stdout).toMatch(/^ {2}1–2 stars +\d+ /m);
    expect(run.stdout).toMatch(/^ {2}< 20 words +\d+ /m);
    for (const reading of ["terms", "aspect model"]) {
      expect(run.stdout).toMatch(new RegExp(`^whose visit, ${reading}: \\d+ credits`, "m"));
      expect(run.stdout).toMatch(new RegExp(`^not in English, ${reading}: \\d+ reviews \\(es \\d+\\)`, "m"));
      expect(run.stdout).toMatch(new RegExp(`^ {2}\\S+ +${reading} +precision \\d+\\.\\d%`, "m"));
    }
    // Both leave them out by their text's language, as the build does.
    expect(run.stdout).toMatch(/^left out as not in English: \d+ reviews \(es \d+\); of the \d+ the labels give/m);
  });

  it("checks every business's files with --check, and refuses --errors on the test businesses", async () => {
    const check = await evalRun("--check");
    expect([check.code, check.stdout.trim()]).toEqual([0, "eval/businesses: every file checks"]);
    const errors = await evalRun("--errors");
    expect(errors.code).toBe(2);
    expect(errors.stderr).toContain("--errors: not on the test businesses");
  });
});
