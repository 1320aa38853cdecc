/** `npm run --silent sentiment -- FILE.jsonl`, run as a user runs it. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../harness/data.ts";
import { runCommand, type Run } from "../helpers/run.ts";

const sentiment = (file: string) => runCommand("npm", ["run", "--silent", "sentiment", "--", file]);

const lines = (run: Run) =>
  run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
const target = (id: string, text: string, aspect: string) => {
  const from = text.indexOf(aspect);
  return { id, text, aspect, from, to: from + aspect.length };
};

describe("npm run sentiment", () => {
  it("prints one {id, aspect, polarity} line per input line, in order, for any domain", async () => {
    const input = [
      target("1", "The technician was great but the price was steep.", "technician"),
      target("2", "The technician was great but the price was steep.", "price"),
      target("3", "The sushi was fresh, though the waiter ignored us.", "waiter"),
      target("4", "I bought it in March.", "it"),
    ];
    const file = join(await tempDir(), "targets.jsonl");
    await writeFile(file, input.map((t) => JSON.stringify(t)).join("\n") + "\n");
    const run = await sentiment(file);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(lines(run)).toEqual([
      { id: "1", aspect: "technician", polarity: "positive" },
      { id: "2", aspect: "price", polarity: "negative" },
      { id: "3", aspect: "waiter", polarity: "negative" },
      { id: "4", aspect: "it", polarity: "neutral" },
    ]);
  });

  it("reports unreadable lines with their line number, still judges the rest, and exits 1", async () => {
    const file = join(await tempDir(), "bad.jsonl");
    await writeFile(
      file,
      [
        JSON.stringify(target("ok", "Dana was on time.", "Dana")),
        "{not json",
        JSON.stringify({ id: "x", text: "short", aspect: "long aspect" }),
        JSON.stringify({ id: "y", text: "short", aspect: "sh", from: 3, to: 99 }),
      ].join("\n"),
    );
    const run = await sentiment(file);
    expect(run.code).toBe(1);
    expect(lines(run)).toEqual([{ id: "ok", aspect: "Dana", polarity: "positive" }]);
    expect(run.stderr).toMatch(/bad\.jsonl:2: not JSON/);
    expect(run.stderr).toMatch(/bad\.jsonl:3: aspect "long aspect" does not occur in text/);
    expect(run.stderr).toMatch(/bad\.jsonl:4: from: from\/to must be a non-empty range inside text/);
  });

  it("judges with the two models combined, or with --model linear the linear model alone", async () => {
    // No opinion word: the pests gone for three weeks, read as such by the encoder.
    const file = join(await tempDir(), "one.jsonl");
    await writeFile(file, JSON.stringify({ ...target("1", "Nothing for 3 weeks now.", "Nothing"), rating: 5 }) + "\n");
    const [combined, linear] = [
      await sentiment(file),
      await runCommand("npm", ["run", "--silent", "sentiment", "--", "--model", "linear", file]),
    ];
    expect(lines(combined)).toEqual([{ id: "1", aspect: "Nothing", polarity: "positive" }]);
    expect(lines(linear)).toEqual([{ id: "1", aspect: "Nothing", polarity: "negative" }]);
    const bad = await runCommand("npm", ["run", "--silent", "sentiment", "--", "--model", "bert", file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/usage: .*--model insights\|linear/);
  });

  it("names a missing file instead of crashing", async () => {
    const run = await sentiment("/nonexistent/targets.jsonl");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot read \/nonexistent\/targets\.jsonl/);
  });
});
