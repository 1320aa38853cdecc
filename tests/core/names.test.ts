/** Where a text names a business's people (core/names.ts), as the import and the insights read it. */
import { describe, expect, it } from "vitest";
import { namings, type Person } from "../../core/names.ts";

const people: Person[] = [
  { id: "kyle-h", name: "Kyle Hebert", aliases: ["Kyle H."] },
  { id: "kyle-l", name: "Kyle LeBlanc", aliases: ["Little Kyle"] },
  { id: "marcus", name: "Marcus Yang", aliases: ["MY"] },
  { id: "ruben", name: "Rubén Ocampo", aliases: ["the bug guy"] },
];

const named = (text: string, capitalised = false) => namings(text, people, { capitalised }).map((n) => [text.slice(n.at, n.end), n.ids]);

describe("namings", () => {
  it("fits a shared first name to both, and an initial or an alias to one", () => {
    expect(named("Kyle came, then Kyle H. and Little Kyle.")).toEqual([
      ["Kyle", ["kyle-h", "kyle-l"]],
      ["Kyle H.", ["kyle-h"]],
      ["Little Kyle", ["kyle-l"]],
    ]);
  });

  it("reads names with or without their accents, at their place in the text", () => {
    expect(named("Thanks Ruben! Rubén was great, José too.")).toEqual([
      ["Ruben", ["ruben"]],
      ["Rubén", ["ruben"]],
    ]);
  });

  it("holds a full name whole", () => {
    expect(named("Kyle LeBlanc sealed it.")).toEqual([["Kyle LeBlanc", ["kyle-l"]]]);
  });

  it("when capitalised, reads a name only as the business writes it", () => {
    expect(named("MY tech was great, my yard is clear.", true)).toEqual([["MY", ["marcus"]]]);
    expect(named("marcus was great and the bug guy too", true)).toEqual([
      ["marcus", ["marcus"]],
      ["the bug guy", ["ruben"]],
    ]);
    expect(named("The marcus stuff. Marcus came.", true)).toEqual([["Marcus", ["marcus"]]]);
    // The import reads any case.
    expect(named("my yard").map(([, ids]) => ids)).toEqual([["marcus"]]);
  });
});
