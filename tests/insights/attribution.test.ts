/** Whose visit a mention is about (insights/attribution.ts), read from real sentences. */
import { describe, expect, it } from "vitest";
import { credits } from "../../insights/attribution.ts";
import { mentions } from "../../insights/sentiment/aspects.ts";

const technicians = [
  { id: "dana-whitfield", name: "Dana Whitfield" },
  { id: "chris-park", name: "Chris Park" },
  { id: "chris-dunn", name: "Chris Dunn" },
];

/** Each mention's aspect with the technicians it counts for. */
function creditsOf(text: string, tagged: string[]): [string, string[]][] {
  const found = mentions(text, 3);
  const c = credits({ text, technicians: tagged }, found, technicians);
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
});
