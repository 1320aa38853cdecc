import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseFeed } from "@rowanmanning/feed-parser";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../core/dist/manifest.ts";
import { localMidnight } from "../../core/local-time.ts";
import { copyOfRepoData, editReview, REPO_DATA, review, smallData, tempDir } from "../../harness/data.ts";
import { runBuild, userEnv } from "../helpers/run.ts";
import { recordDeploy } from "../../build/load/record.ts";

const BASE = "https://reviews.valleyshield.example";
const read = (dir: string, file: string) => readFile(join(dir, file), "utf8");
/** A timestamp as a reader's app in California shows it. */
const inLosAngeles = (time: string) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Los_Angeles", dateStyle: "short", timeStyle: "short" }).format(new Date(time));
const readJson = async (dir: string, file: string) => JSON.parse(await read(dir, file));

describe("npm run build on the repository's data", () => {
  let dist: string;
  let data: string;
  let stdout: string;
  beforeAll(async () => {
    data = await copyOfRepoData();
    dist = join(await tempDir(), "dist");
    const run = await runBuild(data, dist, { BASE_URL: `${BASE}/` });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    stdout = run.stdout;
  });

  it("says how many files dist/ holds", async () => {
    const files = (await readdir(dist, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
    expect(stdout).toContain(`/: ${files} files (`);
  });

  it("writes the four public files and the manifest", async () => {
    const manifest: Manifest = await readJson(dist, "_manifest.json");
    for (const path of ["/reviews.json", "/insights.json", "/api/feed.json", "/feed.xml"]) {
      expect(manifest.files[path], path).toMatchObject({ etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) });
    }
    expect(manifest.files["/api/feed.json"]!.content_type).toBe("application/feed+json");
    expect(manifest.files["/feed.xml"]!.content_type).toBe("application/atom+xml");
    expect(manifest.files["/reviews.json"]!.content_type).toBe("application/json");
  });

  it("derives every absolute URL from BASE_URL, without a doubled slash", async () => {
    const text = await read(dist, "reviews.json");
    expect(text).not.toContain("localhost");
    expect(text).not.toMatch(/example\/\//);
    const dataset = await readJson(dist, "reviews.json");
    expect(dataset.business.url).toBe(`${BASE}/`);
    expect(dataset.reviews[0].url).toBe(`${BASE}/reviews/${dataset.reviews[0].id}/`);
  });

  it("writes reviews.json as valid JSON with one review per line", async () => {
    const text = await read(dist, "reviews.json");
    const dataset = JSON.parse(text);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(dataset.reviews.length + 2);
    expect(lines.at(-1)).toBe("]}");
    dataset.reviews.forEach((r: unknown, i: number) => expect(lines[i + 1]!.replace(/,$/, "")).toBe(JSON.stringify(r)));
  });

  it("lists reviews newest first, by date then id", async () => {
    const { reviews } = await readJson(dist, "reviews.json");
    const sorted = [...reviews].sort((a, b) => (a.date === b.date ? (a.id < b.id ? 1 : -1) : a.date < b.date ? 1 : -1));
    expect(reviews.map((r: { id: string }) => r.id)).toEqual(sorted.map((r) => r.id));
  });

  it("has an aggregate rating that agrees with its reviews", async () => {
    const { aggregate_rating: agg, reviews } = await readJson(dist, "reviews.json");
    expect(agg.review_count).toBe(reviews.length);
    for (const star of [1, 2, 3, 4, 5]) {
      expect(agg.rating_counts[star], `${star} stars`).toBe(reviews.filter((r: { rating: number }) => r.rating === star).length);
    }
    const mean = reviews.reduce((s: number, r: { rating: number }) => s + r.rating, 0) / reviews.length;
    expect(agg.rating_value).toBeCloseTo(mean, 2);
    expect(agg).toMatchObject({ best_rating: 5, worst_rating: 1 });
  });

  it("leaves withdrawn reviews out of every file and lists them in the manifest", async () => {
    const source = (await readdir(join(data, "reviews"))).filter((f) => f.endsWith(".jsonl"));
    const withdrawn: string[] = [];
    for (const file of source) {
      for (const line of (await read(join(data, "reviews"), file)).split("\n").filter(Boolean)) {
        const r = JSON.parse(line);
        if (r.withdrawn) withdrawn.push(r.id);
      }
    }
    expect(withdrawn.length).toBeGreaterThan(0);
    for (const file of ["reviews.json", "insights.json", "api/feed.json", "feed.xml", "index.html"]) {
      const text = await read(dist, file);
      for (const id of withdrawn) expect(text, `${id} in ${file}`).not.toMatch(new RegExp(`\\b${id}\\b`));
    }
    const manifest: Manifest = await readJson(dist, "_manifest.json");
    expect(manifest.withdrawn.map((w) => w.id).sort()).toEqual(withdrawn.sort());
  });

  it("writes a JSON Feed 1.1 with every required member and item field", async () => {
    const feed = await readJson(dist, "api/feed.json");
    const { reviews } = await readJson(dist, "reviews.json");
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    expect(feed.title).toEqual(expect.any(String));
    expect(feed.home_page_url).toBe(`${BASE}/`);
    expect(feed.feed_url).toBe(`${BASE}/api/feed.json`);
    expect(feed.hubs).toEqual([{ type: "WebSub", url: `${BASE}/api/websub/hub` }]);
    expect(feed.items).toHaveLength(50);
    feed.items.forEach((item: Record<string, any>, i: number) => {
      const r = reviews[i];
      expect(item.id).toBe(r.url);
      expect(item.url).toBe(r.url);
      expect(item.title).toContain(`${r.rating}/5`);
      // Contract: the owner's reply follows the review, as in the Atom content.
      expect(item.content_text).toBe(r.response ? `${r.text}\n\nResponse from the owner (${r.response.date}): ${r.response.text}` : r.text);
      // Contract: local midnight in the business's zone (America/Los_Angeles), with its offset.
      expect(item.date_published).toMatch(new RegExp(`^${r.date}T00:00:00-0[78]:00$`));
      expect(inLosAngeles(item.date_published)).toBe(`${r.date} 00:00`);
      expect(item.authors).toEqual([{ name: r.author }]);
      expect(item._review).toMatchObject({ id: r.id, rating: r.rating, services: r.services, technicians: r.technicians });
      for (const key of Object.keys(item))
        expect(["id", "url", "title", "content_text", "date_published", "date_modified", "authors", "tags", "_review"]).toContain(key);
    });
  });

  it("writes well-formed Atom with 50 entries and the WebSub hub and self links", async () => {
    const xml = await read(dist, "feed.xml");
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = parseFeed(xml).toJSON();
    expect(parsed.self).toBe(`${BASE}/feed.xml`);
    expect(parsed.items).toHaveLength(50);
    const { reviews } = await readJson(dist, "reviews.json");
    expect(parsed.items[0]!.url).toBe(reviews[0].url);
    const atom = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml).feed;
    const links = atom.link as { rel: string; href: string }[];
    expect(links).toContainEqual({ rel: "hub", href: `${BASE}/api/websub/hub` });
    expect(links).toContainEqual(expect.objectContaining({ rel: "self", href: `${BASE}/feed.xml` }));
    expect(atom.entry[0].id).toBe(reviews[0].url);
    atom.entry.forEach((entry: { published: string }, i: number) => expect(inLosAngeles(entry.published)).toBe(`${reviews[i].date} 00:00`));
  });

  it("takes Last-Modified from the data, never from the clock", async () => {
    const manifest: Manifest = await readJson(dist, "_manifest.json");
    const { reviews, updated } = await readJson(dist, "reviews.json");
    const business = JSON.parse(await readFile(join(REPO_DATA, "business.json"), "utf8"));
    // A date counts from its local midnight in the business's time zone, as the feeds date it.
    const midnight = (date: string) => localMidnight(date, business.time_zone);
    const times = [
      business.updated,
      ...reviews.flatMap((r: any) => [midnight(r.date), r.published, r.updated, r.response && midnight(r.response.date)]),
      ...manifest.withdrawn.map((w) => w.at),
    ].filter(Boolean);
    expect(Date.parse(updated)).toBe(Math.max(...times.map(Date.parse)));
    expect(manifest.files["/reviews.json"]!.last_modified).toBe(updated);
  });

  it("keeps precompressed copies that decompress to the same bytes", async () => {
    const { gunzipSync, brotliDecompressSync } = await import("node:zlib");
    const manifest: Manifest = await readJson(dist, "_manifest.json");
    const entry = manifest.files["/reviews.json"]!;
    const original = await readFile(join(dist, entry.file));
    expect(gunzipSync(await readFile(join(dist, entry.encodings.gzip!.file)))).toEqual(original);
    expect(brotliDecompressSync(await readFile(join(dist, entry.encodings.br!.file)))).toEqual(original);
  });
});

describe("build determinism and ETags", () => {
  async function filesOf(dist: string): Promise<Map<string, string>> {
    const names = (await readdir(dist, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    const out = new Map<string, string>();
    for (const e of names) out.set(join(e.parentPath, e.name).slice(dist.length), await readFile(join(e.parentPath, e.name), "base64"));
    return out;
  }

  it("gives identical bytes when building the same data twice", async () => {
    const data = await copyOfRepoData();
    const [a, b] = [join(await tempDir(), "dist"), join(await tempDir(), "dist")];
    expect((await runBuild(data, a)).code).toBe(0);
    expect((await runBuild(data, b)).code).toBe(0);
    expect(await filesOf(b)).toEqual(await filesOf(a));
  });

  it("changes the ETag of every file holding an edited review, and of no other", async () => {
    const reviews = Array.from({ length: 60 }, (_, i) =>
      review({ id: `r-${String(i).padStart(2, "0")}`, date: `2025-0${1 + Math.floor(i / 20)}-${String(1 + (i % 20)).padStart(2, "0")}` }),
    );
    const data = await smallData(reviews);
    const dist = join(await tempDir(), "dist");
    const etags = async () => {
      const run = await runBuild(data, dist);
      expect(run.code, run.stderr).toBe(0);
      const m: Manifest = await readJson(dist, "_manifest.json");
      return Object.fromEntries(Object.entries(m.files).map(([p, f]) => [p, f.etag]));
    };
    const before = await etags();
    // Deployed (hub:ping's step): its reviews are published, and an edit nobody dated is noticed.
    await recordDeploy(userEnv().BUILD_CACHE_DIR!, data, dist);
    // The oldest review is in reviews.json only (the feeds hold the 50 newest); its new words
    // are a new aspect mention, which insights.json cites.
    await editReview(join(data, "reviews/2025.jsonl"), "r-00", (r) => ({ ...r, text: "Edited: the ants came back a week later." }));
    const afterOld = await etags();
    const changedOld = Object.keys(before)
      .filter((p) => before[p] !== afterOld[p])
      .sort();
    expect(changedOld).toEqual(expect.arrayContaining(["/insights.json", "/reviews.json"]));
    // The insights page quotes the newest mentions, so it may change too; the build dates the
    // unflagged edit (its record gives it "updated"), so the sitemap's lastmod does; nothing else changes.
    expect(changedOld).toContain("/sitemap.xml");
    expect(changedOld.filter((p) => !["/insights.json", "/insights/index.html", "/reviews.json", "/sitemap.xml"].includes(p))).toEqual([]);
    // The newest review is also in both feeds, on the home page, on the first page of the
    // reviews list and in the widget for the owner's site; its author is in no figure.
    await editReview(join(data, "reviews/2025.jsonl"), "r-59", (r) => ({ ...r, author: "Edited A." }));
    const afterNew = await etags();
    expect(
      Object.keys(before)
        .filter((p) => afterOld[p] !== afterNew[p])
        .sort(),
    ).toEqual([
      "/api/feed.json",
      "/embed/auto/index.html",
      "/embed/dark/index.html",
      "/embed/index.html",
      "/feed.xml",
      "/index.html",
      "/reviews.json",
      "/reviews/index.html",
    ]);
  });

  it("leaves the previous dist/ whole when the data is broken, and names the problem", async () => {
    const data = await smallData([review()]);
    const dist = join(await tempDir(), "dist");
    const first = await runBuild(data, dist);
    expect(first.code, first.stderr).toBe(0);
    const before = await filesOf(dist);
    await writeFile(join(data, "reviews/2025.jsonl"), JSON.stringify(review({ rating: 9 })) + "\n");
    const run = await runBuild(data, dist);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/2025\.jsonl line 1 \(r-1\): rating = 9: expected an integer from 1 to 5/);
    expect(await filesOf(dist)).toEqual(before);
    // No staging folder is left behind; the first build's owner report (run.ts puts it beside dist/) stays.
    const siblings = await readdir(join(dist, ".."));
    expect(siblings.sort()).toEqual(["dist", "owner.html"]);
  });

  it("stops with a message naming BASE_URL when it is not a URL", async () => {
    const run = await runBuild(await smallData(), join(await tempDir(), "dist"), { BASE_URL: "reviews.example" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/BASE_URL="reviews\.example": expected an absolute http\(s\) URL/);
  });
});

describe("npm run build on a line with several problems", () => {
  it("names every problem of the line, and of the other lines, in one run", async () => {
    const fourProblems = review({ rating: 9, technicians: ["mike"], service_area: "narnia", date: "2099-01-05" });
    const run = await runBuild(await smallData([fourProblems, review({ id: "r-2", services: ["bats"] })]), join(await tempDir(), "dist"));
    expect(run.code).toBe(1);
    const problems = run.stderr.split("\n").filter((line) => /2025\.jsonl line \d/.test(line));
    expect(problems).toHaveLength(5);
    for (const [field, value] of [
      ["rating", "9"],
      ["technicians[0]", '"mike"'],
      ["service_area", '"narnia"'],
      ["date", '"2099-01-05"'],
    ]) {
      expect(
        problems.filter((line) => line.includes(`2025.jsonl line 1 (r-1): ${field} = ${value}: expected `)),
        field,
      ).toHaveLength(1);
    }
    const other = '2025.jsonl line 2 (r-2): services[0] = "bats": expected an id listed in';
    expect(problems.filter((line) => line.includes(other))).toHaveLength(1);
  });
});
