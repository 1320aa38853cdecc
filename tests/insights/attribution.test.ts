/** Whose visit a mention is about (insights/attribution.ts), read from real sentences. */
import { describe, expect, it } from "vitest";
import { credits, type Named, type Shared } from "../../insights/attribution.ts";
import { mentions } from "../../insights/sentiment/aspects.ts";

const technicians: Named[] = [
  { id: "dana-whitfield", name: "Dana Whitfield" },
  { id: "chris-park", name: "Chris Park" },
  { id: "chris-dunn", name: "Chris Dunn" },
  { id: "marco-ruiz", name: "Marco Ruiz", aliases: ["Big M", "the rat guy"] },
  { id: "winston-tran", name: "Winston Tran", aliases: ["Win"] },
];

/** Each mention's aspect with the technicians it counts for. */
function creditsOf(text: string, tagged: string[], staff = technicians, shared: Shared = "tagged"): [string, string[]][] {
  const found = mentions(text, 3);
  const c = credits({ text, technicians: tagged }, found, staff, shared);
  return found.map((m, k) => [m.aspect, c[k]!]);
}

describe("a mention counts for the technician whose visit it is about", () => {
  it("never for the office's aspects", () => {
    const found = creditsOf("Dana was on time. The invoice charged me twice and nobody returned my calls.", ["dana-whitfield"]);
    expect(found).toContainEqual(["punctuality", ["dana-whitfield"]]);
    for (const [aspect, ids] of found) if (aspect === "billing" || aspect === "office") expect(ids).toEqual([]);
    expect(found.some(([aspect]) => aspect === "billing" || aspect === "office")).toBe(true);
  });

  it("for the one named in its sentence, or named last before it, in a review of two", () => {
    const found = creditsOf("Chris D. was two hours late. Dana came back for the re-treat and she was very thorough.", [
      "chris-dunn",
      "dana-whitfield",
    ]);
    expect(found).toContainEqual(["punctuality", ["chris-dunn"]]);
    expect(found).toContainEqual(["thoroughness", ["dana-whitfield"]]);
  });

  it("tells two technicians of one first name apart by the review's tags", () => {
    expect(creditsOf("Chris was thorough and explained everything.", ["chris-park"])).toEqual([
      ["thoroughness", ["chris-park"]],
      ["communication", ["chris-park"]],
    ]);
  });

  it("for nobody when the sentence is about nobody in particular or names someone who is no technician (2026-11-27)", () => {
    expect(creditsOf("Nobody came. Dana was great the next morning.", ["dana-whitfield"])).toEqual([
      ["punctuality", []],
      ["professionalism", ["dana-whitfield"]],
    ]);
    expect(creditsOf("Dana was thorough. Becca was nice when I finally reached her.", ["dana-whitfield"])).toEqual([
      ["thoroughness", ["dana-whitfield"]],
      ["professionalism", []],
    ]);
  });

  it("for nobody when the sentence is about a colleague it does not name, nor the sentences after it", () => {
    const text = "Dana was thorough the first time. Second visit they sent somebody else, who was two hours late. He was rude too.";
    expect(creditsOf(text, ["dana-whitfield"])).toEqual([
      ["thoroughness", ["dana-whitfield"]],
      ["punctuality", []],
      ["follow_up", []],
      ["professionalism", []],
    ]);
    expect(creditsOf("Marco came out. A different tech did the re-treat and was late.", ["marco-ruiz"])).toEqual([
      ["punctuality", []],
      ["follow_up", []],
    ]);
    // Named in the same sentence, the colleague is the other one: "Dana was great, unlike someone else" stays Dana's.
    expect(creditsOf("Dana was on time, unlike someone else they sent.", ["dana-whitfield"])).toEqual([
      ["punctuality", ["dana-whitfield"]],
    ]);
  });

  it("for nobody before the update of an edited review that names its technician only in the update", () => {
    const text =
      "Two treatments and the roaches are still in the kitchen every night.\n\nUpdate: they sent Dana out. She was thorough and the roaches are gone.";
    const found = creditsOf(text, ["dana-whitfield"]);
    expect(found.filter(([aspect]) => aspect === "effectiveness").map(([, ids]) => ids)).toEqual([[], ["dana-whitfield"]]);
    // Named before the update too: the original part is theirs.
    expect(creditsOf("Dana was late.\n\nUpdate: Dana came back and was thorough.", ["dana-whitfield"])).toEqual([
      ["punctuality", ["dana-whitfield"]],
      ["thoroughness", ["dana-whitfield"]],
    ]);
  });

  it("for both when the sentence speaks of them together, and for nobody when it cannot tell", () => {
    expect(creditsOf("They were polite and careful.", ["chris-park", "dana-whitfield"])).toContainEqual([
      "professionalism",
      ["chris-park", "dana-whitfield"],
    ]);
    expect(creditsOf("The work was sloppy.", ["chris-park", "dana-whitfield"])).toEqual([["thoroughness", []]]);
  });

  it("for a technician the text names though the business did not tag them", () => {
    expect(creditsOf("Dana was thorough and explained everything.", [])).toEqual([
      ["thoroughness", ["dana-whitfield"]],
      ["communication", ["dana-whitfield"]],
    ]);
    expect(creditsOf("Dana was thorough and explained everything.", ["chris-park"])).toEqual([
      ["thoroughness", ["dana-whitfield"]],
      ["communication", ["dana-whitfield"]],
    ]);
  });

  it("for nobody when a first name two technicians share is not told apart by exactly one tag", () => {
    for (const tagged of [[], ["chris-park", "chris-dunn"]])
      expect(creditsOf("Chris was thorough and explained everything.", tagged)).toEqual([
        ["thoroughness", []],
        ["communication", []],
      ]);
    // Where the tags are not to be read: a shared first name is nobody's, tagged or not.
    expect(creditsOf("Chris was thorough and explained everything.", ["chris-park"], technicians, "nobody")).toEqual([
      ["thoroughness", []],
      ["communication", []],
    ]);
  });

  it("for the technician a nickname the business lists names, capitalised as listed", () => {
    expect(creditsOf("Big M sealed every gap and explained everything.", [])).toEqual([
      ["thoroughness", ["marco-ruiz"]],
      ["communication", ["marco-ruiz"]],
    ]);
    expect(creditsOf("The rat guy sealed every gap and explained everything.", [])).toContainEqual(["thoroughness", ["marco-ruiz"]]);
    expect(creditsOf("Dana was on time. Win was polite too.", [])).toEqual([
      ["punctuality", ["dana-whitfield"]],
      ["professionalism", ["winston-tran"]],
    ]);
    // "win" the word is no nickname: the sentence carries on Dana's visit.
    expect(creditsOf("Dana was on time. What a win, the tech was polite too.", [])).toEqual([
      ["punctuality", ["dana-whitfield"]],
      ["professionalism", ["dana-whitfield"]],
    ]);
  });

  it("never for a previous company's technician, even one who shares a name with ours", () => {
    const text = "The last company's guy, Mike, never showed up. He was rude too. Dana came the next morning and was thorough.";
    const expected = [
      ["punctuality", []],
      ["professionalism", []],
      ["thoroughness", ["dana-whitfield"]],
    ];
    expect(creditsOf(text, ["dana-whitfield"])).toEqual(expected);
    const withMike = [...technicians, { id: "mike-sole", name: "Mike Sole" }];
    expect(creditsOf(text, ["mike-sole"], withMike)).toEqual(expected);
    expect(creditsOf("Mike from our old company was rude. Dana was thorough.", [], withMike)).toEqual([
      ["professionalism", []],
      ["thoroughness", ["dana-whitfield"]],
    ]);
    // Measured against the last company, the visit is ours.
    expect(creditsOf("Unlike the last guys, Dana was on time.", [])).toEqual([["punctuality", ["dana-whitfield"]]]);
  });

  it("for nobody when a complaint has no clear subject, whoever the review tags", () => {
    expect(creditsOf("Showed up two hours late and rushed through everything.", ["dana-whitfield"])).toEqual([
      ["punctuality", []],
      ["thoroughness", []],
    ]);
  });

  it("for the one technician a review names, in its sentences before the name", () => {
    expect(creditsOf("Came right on time. Dana is great and explained everything.", [])).toContainEqual([
      "punctuality",
      ["dana-whitfield"],
    ]);
  });
});
