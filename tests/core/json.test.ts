/**
 * Long lists kept as JSON (core/json.ts): what the build writes from them must be what
 * JSON.stringify writes from the lists themselves, and the ends the schema check reads must be
 * the lists' own ends, whatever the items' strings hold.
 */
import { describe, expect, it } from "vitest";
import { jsonPart, jsonPieces, JsonList, toJson } from "../../core/json.ts";

/** Items whose strings hold what a scan for commas and brackets could trip on. */
const items = Array.from({ length: 240 }, (_, i) => ({
  review_id: `r-${i}`,
  quote: [
    `plain ${i}`,
    `a "quoted, bracketed]" word`,
    "back\\slash\\\\",
    "ends with a backslash \\",
    "commas, {braces}, [brackets]",
    "non-Latin: “curly” ü 🐜",
    '\\"escaped quote',
  ][i % 7],
  at: [i, { nested: [i, `x${i}`] }],
}));

/** The items cut into parts of uneven sizes, as months cut a list. */
function listOf(values: readonly unknown[], sizes: readonly number[]): JsonList {
  const parts = [];
  let at = 0;
  for (const size of sizes) {
    parts.push(jsonPart(values.slice(at, at + size)));
    at += size;
  }
  parts.push(jsonPart(values.slice(at)));
  return JsonList.fromParts(parts);
}

describe("a list kept as JSON", () => {
  it("is written as JSON.stringify writes the list, inside any value", () => {
    const list = listOf(items, [3, 0, 50, 1, 100]);
    const value = { a: [1, "two", null, undefined, { b: list, c: undefined }], d: JsonList.of([]), e: "é", f: -0.5, g: true };
    const expected = JSON.stringify({ ...value, a: [1, "two", null, undefined, { b: items, c: undefined }], d: [] });
    expect(toJson(value).toString("utf8")).toBe(expected);
    expect(Buffer.concat(jsonPieces(value).flatMap((p) => p.bytes)).toString("utf8")).toBe(expected);
  });

  it("marks the older parts of a list, the ones after its first, and nothing else", () => {
    const pieces = jsonPieces({ list: listOf(items, [10, 20]), small: JsonList.of([1]) });
    const older = pieces.filter((p) => p.older).map((p) => Buffer.concat(p.bytes).toString("utf8"));
    expect(older).toEqual([
      `,${items
        .slice(10, 30)
        .map((x) => JSON.stringify(x))
        .join(",")},${items
        .slice(30)
        .map((x) => JSON.stringify(x))
        .join(",")}`,
    ]);
  });

  it("counts its items and gives them back", () => {
    const list = JsonList.join([listOf(items, [7, 9]), JsonList.of(["last"])]);
    expect(list.length).toBe(items.length + 1);
    expect(list.items()).toEqual([...items, "last"]);
  });

  it.each([1, 2, 6, 7, 50, 119, 120])("reads its first and last %i items from the ends alone", (n) => {
    const list = listOf(items, [1, 4, 2, 60, 3]);
    expect(list.ends(n)).toEqual([...items.slice(0, n), ...items.slice(-n)]);
  });
});
