/**
 * `npm run import` and `npm run init` as an owner runs them: the real command as a child process,
 * on real files in temporary folders, then the real build and sidecar over what it wrote.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildHere } from "../../harness/build.ts";
import { smallData, tempDir, tree, SYNTHETIC } from "../../harness/data.ts";
import { startSidecar } from "../../harness/sidecar.ts";
import { endChildren } from "../helpers/children.ts";
import { runBuild, runScript } from "../helpers/run.ts";

afterAll(() => endChildren());

const page = (reviews: object[], extra: object = {}) =>
  JSON.stringify({ reviews, averageRating: 4.5, totalReviewCount: reviews.length, ...extra });
const google = (id: string, overrides: object = {}) => ({
  name: `accounts/1/locations/2/reviews/${id}`,
  reviewId: id,
  reviewer: { displayName: "Maria Gonzalez" },
  starRating: "FIVE",
  comment: "Dana came out the next day and the ants are gone from the kitchen.",
  createTime: "2026-03-02T18:40:00Z",
  updateTime: "2026-03-02T18:40:00Z",
  ...overrides,
});

async function folder(): Promise<{ data: string; work: string; report: string }> {
  const data = await smallData([], { "business.json": await businessWithZone() });
  const work = await tempDir();
  return { data, work, report: join(work, "reports", "import.txt") };
}

async function businessWithZone(): Promise<string> {
  const dir = await smallData([]);
  return JSON.stringify({ ...JSON.parse(await readFile(join(dir, "business.json"), "utf8")), time_zone: "America/Los_Angeles" });
}

const importing = (f: { data: string; report: string }, args: string[]) =>
  runScript("import/cli.ts", args, { DATA_DIR: f.data, IMPORT_REPORT: f.report });

async function reviewsIn(data: string): Promise<Record<string, any>[]> {
  const files = (await readdir(join(data, "reviews"))).filter((n) => n.endsWith(".jsonl"));
  const texts = await Promise.all(files.map((n) => readFile(join(data, "reviews", n), "utf8")));
  return texts.flatMap((t) =>
    t
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  );
}

describe("npm run import: Google Business Profile pages", () => {
  it("publishes reviews with text, counts ratings alone, keeps the original words, and changes no byte the second time", async () => {
    const f = await folder();
    const file = join(f.work, "page.json");
    await writeFile(
      file,
      page([
        google("g1"),
        google("g2", { comment: undefined, reviewer: { isAnonymous: true } }),
        google("g3", {
          reviewer: { displayName: "Hans M." },
          comment: "(Translated by Google) Marco was on time.\n\n(Original)\nMarco war pünktlich, die Mäuse sind weg.",
          createTime: "2026-04-01T06:30:00Z",
        }),
      ]),
    );
    const first = await importing(f, [file]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("ratings without text (counted, not published): 1");
    const reviews = await reviewsIn(f.data);
    expect(reviews.map((r) => r.text)).toEqual([
      "Dana came out the next day and the ants are gone from the kitchen.",
      "Marco war pünktlich, die Mäuse sind weg.",
    ]);
    // 18:40 UTC on March 2 is still March 2 in California; 06:30 UTC on April 1 is March 31 there.
    expect(reviews.map((r) => r.date)).toEqual(["2026-03-02", "2026-03-31"]);
    expect(reviews[0]).toMatchObject({
      source: { platform: "google", id: "g1" },
      technicians: ["dana-whitfield"],
      services: ["ant-control"],
    });
    expect(await readFile(f.report, "utf8")).toContain("tags filled");
    const before = await tree(f.data);
    expect((await importing(f, [file])).code).toBe(0);
    expect(await tree(f.data)).toEqual(before);
  });

  it("takes in an edit as updated and a new reply as response, and since lists the review as changed", async () => {
    const f = await folder();
    const file = join(f.work, "page.json");
    await writeFile(
      file,
      page([google("g1"), google("g9", { reviewer: { displayName: "Ann Lee" }, comment: "Rocklin visit, fine work." })]),
    );
    expect((await importing(f, [file])).code).toBe(0);
    const [original] = await reviewsIn(f.data);
    const edited = google("g1", {
      starRating: "FOUR",
      comment: "Dana came out the next day. A few ants came back after a month.",
      updateTime: "2026-06-10T16:00:00Z",
      reviewReply: { comment: "Thank you, Maria: we will come back for free.", updateTime: "2026-06-11T17:00:00Z" },
    });
    await writeFile(file, page([edited, google("g9", { reviewer: { displayName: "Ann Lee" }, comment: "Rocklin visit, fine work." })]));
    const second = await importing(f, [file]);
    expect(second.stdout).toMatch(/updated \(edited on the platform\): 1\n {2}- \S+: 5 to 4 stars and text/);
    expect(second.stdout).toContain("new or changed replies: 1");
    const [after] = await reviewsIn(f.data);
    expect(after).toMatchObject({
      id: original!.id,
      rating: 4,
      updated: "2026-06-10T16:00:00Z",
      response: { date: "2026-06-11", text: "Thank you, Maria: we will come back for free." },
    });
    const dist = join(await tempDir(), "dist");
    await buildHere(f.data, dist, SYNTHETIC);
    const sidecar = await startSidecar(dist);
    try {
      const body = await (await sidecar.app.request("/api/reviews/since/2026-06-01")).json();
      expect(body.changed.map((r: { id: string }) => r.id)).toContain(original!.id);
      expect(body.changed.find((r: { id: string }) => r.id === original!.id)).toMatchObject({ rating: 4, source: { platform: "google" } });
    } finally {
      await sidecar.close();
    }
  });

  it("reports a review gone from a full export, and withdraws it only with --withdraw-missing", async () => {
    const f = await folder();
    const file = join(f.work, "page.json");
    await writeFile(
      file,
      page([google("g1"), google("g2", { reviewer: { displayName: "Ann Lee" }, comment: "Quick and tidy work in Rocklin." })]),
    );
    await importing(f, [file]);
    const gone = (await reviewsIn(f.data)).find((r) => r.source.id === "g2")!;
    await writeFile(file, page([google("g1")]));
    const reported = await importing(f, [file]);
    expect(reported.stdout).toContain(
      `gone from a full export (run again with --withdraw-missing to withdraw them): 1\n  - ${gone.id} (google)`,
    );
    expect((await reviewsIn(f.data)).find((r) => r.id === gone.id)!.withdrawn).toBeUndefined();
    const withdrawn = await importing(f, ["--withdraw-missing", file]);
    expect(withdrawn.stdout).toContain(`withdrawn (gone from a full export): 1\n  - ${gone.id} (google)`);
    expect((await reviewsIn(f.data)).find((r) => r.id === gone.id)!.withdrawn).toMatchObject({ reason: expect.stringContaining("Google") });
  });

  it("does not count a review missing from one page of a longer list as gone", async () => {
    const f = await folder();
    const file = join(f.work, "page.json");
    await writeFile(file, page([google("g1"), google("g2", { reviewer: { displayName: "Ann Lee" }, comment: "Quick and tidy work." })]));
    await importing(f, [file]);
    await writeFile(file, page([google("g1")], { totalReviewCount: 2, nextPageToken: "next" }));
    expect((await importing(f, [file])).stdout).toContain(
      "gone from a full export (run again with --withdraw-missing to withdraw them): 0",
    );
  });
});

const SURVEY =
  "\ufeffSubmitted;Your name;Email;Phone;How would you rate your visit?;Anything else?\r\n" +
  '02.03.2026;Maria G.;maria.g@mail.example;916-555-0101;5;"Great job,\r\nthe ants are gone."\r\n' +
  "15.03.2026;Bob Stone;bob.s@mail.example;916-555-0102;3;Nobody called back about the second visit.\r\n";
const JOBS =
  "Job #,Completed,Customer,Email,Phone,Address,Technician,Service,City\n" +
  "J-100,2026-02-28,Maria Gonzalez,maria.g@mail.example,(916) 555-0101,12 Oak Lane,Marco Ruiz,Rodent control,Rocklin\n" +
  "J-101,2026-01-05,Bob Stone,bob.s@mail.example,916-555-0102,9 Elm Court,Dana Whitfield,Ant control,Roseville\n";
const PRIVATE = ["maria.g@mail.example", "bob.s@mail.example", "555-0101", "555-0102", "12 Oak Lane", "9 Elm Court", "Maria Gonzalez"];

async function everyFile(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), "latin1")));
}

describe("npm run import: a survey CSV verified against a jobs export", () => {
  it("tags a matched review from its visit, keeps an unmatched one pending and unpublished, publishes it on --accept, and writes no customer's contact", async () => {
    const f = await folder();
    const survey = join(f.work, "survey.csv");
    const jobs = join(f.work, "jobs.csv");
    await writeFile(survey, SURVEY);
    await writeFile(jobs, JOBS);
    const run = await importing(f, ["--jobs", jobs, survey]);
    expect(run.code).toBe(0);
    const [matched] = await reviewsIn(f.data);
    expect(matched).toMatchObject({
      author: "Maria G.",
      text: "Great job,\nthe ants are gone.",
      technicians: ["marco-ruiz"],
      services: ["rodent-control"],
      service_area: "rocklin",
      verified: { by: "visit", visit: "2026-02-28" },
    });
    const pending = (await readFile(join(f.data, "pending.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ author: "Bob Stone", pending: { reason: expect.stringContaining("no visit") } });
    expect(run.stdout).toContain(`${pending[0].id} (${survey} row 3): no visit of a customer named Bob Stone`);

    const dist = join(await tempDir(), "dist");
    const built = await runBuild(f.data, dist, SYNTHETIC);
    expect(built.code).toBe(0);
    const published = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8"));
    expect(published.reviews.map((r: { id: string }) => r.id)).toEqual([matched!.id]);
    expect(published.reviews[0].verified).toEqual({ by: "visit", visit: "2026-02-28" });

    const leaks = [...(await everyFile(f.data)), ...(await everyFile(dist)), await readFile(f.report, "latin1"), run.stdout];
    for (const secret of PRIVATE)
      expect(
        leaks.filter((text) => text.includes(secret)),
        secret,
      ).toEqual([]);

    const accepted = await importing(f, ["--accept", pending[0].id]);
    expect(accepted.code).toBe(0);
    expect(await readFile(join(f.data, "pending.jsonl"), "utf8")).toBe("");
    expect((await reviewsIn(f.data)).find((r) => r.id === pending[0].id)).toMatchObject({ verified: { by: "owner" } });
  });

  it("refuses an --accept of an id that waits nowhere, writing nothing", async () => {
    const f = await folder();
    const before = await tree(f.data);
    const run = await importing(f, ["--accept", "s-nothing"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pending.jsonl: --accept = "s-nothing": expected the id of a pending review');
    expect(await tree(f.data)).toEqual(before);
  });
});

describe("npm run import: the same review from two sources", () => {
  it("keeps it once and reports the duplicate", async () => {
    const f = await folder();
    const file = join(f.work, "page.json");
    const csv = join(f.work, "survey.csv");
    await writeFile(file, page([google("g1")]));
    await writeFile(
      csv,
      "date,name,rating,review\n2026-03-04,Maria G.,5,Dana came out the next day and the ants are gone from the kitchen!\n",
    );
    const run = await importing(f, [file, csv]);
    expect(run.code).toBe(0);
    const [kept] = await reviewsIn(f.data);
    expect(await reviewsIn(f.data)).toHaveLength(1);
    expect(run.stdout).toContain(`duplicates (the same review from another source, kept once): 1\n  - ${csv} row 2: same as ${kept!.id}`);
  });
});

describe("npm run import: a bad file", () => {
  it("names every problem of every file and writes nothing", async () => {
    const f = await folder();
    const good = join(f.work, "good.json");
    const bad = join(f.work, "bad.json");
    const csv = join(f.work, "bad.csv");
    await writeFile(good, page([google("g1")]));
    await writeFile(bad, page([google("g2", { starRating: "STAR_RATING_UNSPECIFIED" }), google("g3", { createTime: "yesterday" })]));
    await writeFile(
      csv,
      "date,name,rating,review\n2026-03-02,Ann,great,Fine work on the ants.\n2026-13-02,Bo,4,Good work on the spiders.\n",
    );
    const before = await tree(f.data);
    const run = await importing(f, [good, bad, csv]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    for (const line of [
      `${bad} reviews[0]: starRating = "STAR_RATING_UNSPECIFIED": a review without stars is not published`,
      `${bad} reviews[1]: createTime = "yesterday": expected an RFC 3339 timestamp`,
      `${csv} row 2: column "rating" = "great": expected a whole number of stars from 1 to 5`,
      `${csv} row 3: column "date" = "2026-13-02": expected a date`,
    ]) {
      expect(run.stderr).toContain(line);
    }
    expect(await tree(f.data)).toEqual(before);
    expect(existsSync(f.report)).toBe(false);
  });

  it("asks for --date-format when no day in the column is over 12, and reads the file with it", async () => {
    const f = await folder();
    const csv = join(f.work, "survey.csv");
    await writeFile(
      csv,
      "Timestamp,Name,Stars,Comments\n03/02/2026,Ann Lee,5,Tidy work on the spiders.\n04/03/2026,Bo Ng,4,Good job on the wasps.\n",
    );
    const refused = await importing(f, [csv]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('column "Timestamp" = "03/02/2026": every day in this column is 12 or less');
    expect((await importing(f, ["--date-format", "DD/MM/YYYY", csv])).code).toBe(0);
    expect((await reviewsIn(f.data)).map((r) => r.date)).toEqual(["2026-02-03", "2026-03-04"]);
  });
});

describe("npm run init", () => {
  it("writes a folder that an import fills and the build publishes", async () => {
    const work = await tempDir();
    const data = join(work, "data");
    const init = await runScript(
      "import/init.ts",
      [
        "--name",
        "Oak Pest",
        "--time-zone",
        "America/Chicago",
        "--phone",
        "+1-512-555-0100",
        "--email",
        "hi@oak.example",
        "--address",
        "5 Elm St, Austin, TX 78701",
      ],
      { DATA_DIR: data },
    );
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    const again = await runScript(
      "import/init.ts",
      ["--name", "X", "--time-zone", "UTC", "--phone", "1", "--email", "a@b.example", "--address", "1 A St, B, TX 1"],
      {
        DATA_DIR: data,
      },
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("is not empty");
    const file = join(work, "page.json");
    await writeFile(file, page([google("g1")]));
    expect((await runScript("import/cli.ts", [file], { DATA_DIR: data, IMPORT_REPORT: join(work, "import.txt") })).code).toBe(0);
    const built = await runBuild(data, join(work, "dist"), SYNTHETIC);
    expect(built.stderr).toBe("");
    expect(JSON.parse(await readFile(join(work, "dist", "reviews.json"), "utf8")).reviews).toHaveLength(1);
  });

  it("needs only a name and a time zone: the pages leave out the phone, email and address it was not given", async () => {
    const work = await tempDir();
    const data = join(work, "data");
    const init = await runScript("import/init.ts", ["--name", "Elm Pest", "--time-zone", "America/Denver"], { DATA_DIR: data });
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    const business = JSON.parse(await readFile(join(data, "business.json"), "utf8"));
    expect(business).not.toHaveProperty("telephone");
    expect(business).not.toHaveProperty("address");
    const missing = await runScript("import/init.ts", ["--name", "Elm Pest"], { DATA_DIR: join(work, "other") });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("--time-zone");
    const file = join(work, "page.json");
    await writeFile(file, page([google("g1")]));
    expect((await runScript("import/cli.ts", [file], { DATA_DIR: data, IMPORT_REPORT: join(work, "import.txt") })).code).toBe(0);
    const built = await runBuild(data, join(work, "dist"), SYNTHETIC);
    expect(built.stderr).toBe("");
    const home = await readFile(join(work, "dist", "index.html"), "utf8");
    expect(home).toContain("Elm Pest");
    expect(home).not.toMatch(/tel:|mailto:|undefined/);
  });
});
