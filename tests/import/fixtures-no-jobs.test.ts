/**
 * Without `--jobs` every review with text is published (CONTRACT.md "Import"), tagged from the
 * columns a sheet has: the owner's own sheet, saved by Excel (tests/import/fixtures/reviews-excel.csv).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { businessCopy, fixture, importOk, pendingLines, publishedLines, verifiedMark, type Business, type Line } from "./fixtures-cli.ts";

describe("importing without the jobs export", () => {
  let business: Business;
  let published: Line[];
  beforeAll(async () => {
    business = await businessCopy();
    await importOk(business, [fixture("reviews-excel.csv")]);
    published = await publishedLines(business.data);
  });

  it("publishes every row with text, none verified, and writes nothing pending", async () => {
    expect(published.map((l) => l.author).sort()).toEqual(["Carl Brandt", "Kevin O'Brien", 'Patricia "Patty" Moreno', "Ruth Ann Sorensen"]);
    expect(published.filter((l) => verifiedMark(l))).toEqual([]);
    expect(await pendingLines(business.data)).toEqual([]);
  });

  it("tags from the sheet's columns: a unique first name, a nickname, a service and a town", () => {
    const carl = published.find((l) => l.author === "Carl Brandt")!;
    expect([carl.technicians, carl.services, carl.service_area]).toEqual([["luis-cantu"], ["scorpion-control"], "new-braunfels"]);
    const kevin = published.find((l) => l.author === "Kevin O'Brien")!;
    expect([kevin.technicians, kevin.services, kevin.service_area]).toEqual([["raymond-okafor"], ["mosquito-control"], "san-marcos"]);
  });

  it("reads Excel's quoting: line breaks inside a cell, doubled quotes, dates as M/D/YYYY", () => {
    const carl = published.find((l) => l.author === "Carl Brandt")!;
    expect([carl.date, carl.text]).toEqual([
      "2026-09-28",
      "Came out for scorpions.\n\nStill finding them in the bathtub a week later. Calling again",
    ]);
    const patty = published.find((l) => l.author.includes("Patty"))!;
    expect(patty.text).toBe('Good service. Tech said "call us if you see any more" and I did, they came back out at no charge');
    expect(patty.date).toBe("2026-11-19");
  });
});
