/**
 * The language of a review's text (insights/sentiment/language.ts), as the insights tell it before
 * reading: on the written businesses' training reviews, whose labels give each one's language,
 * and on the short reviews that must stay English.
 */
import { describe, expect, it } from "vitest";
import { readBusiness, readSplits } from "../../eval/businesses.ts";
import { ENGLISH, languageName, languageOf, UNKNOWN } from "../../insights/sentiment/language.ts";

describe("the language of a review's text", () => {
  const reviews = readSplits().train.flatMap((slug) => readBusiness(slug).reviews);
  const told = reviews.map((r) => languageOf(r.text));

  // Measured when the rule was chosen: every training review told right (train and validation
  // alike; docs/insights-method.md). The floors leave a margin for changes to the lists.
  it("tells the training businesses' reviews' languages as their labels give them", () => {
    const right = reviews.filter((r, i) => told[i] === r.language).length;
    expect(reviews.length).toBeGreaterThan(500);
    expect(right / reviews.length).toBeGreaterThanOrEqual(0.99);
  });

  it("finds their reviews in Spanish", () => {
    const spanish = reviews.filter((r) => r.language === "es");
    expect(spanish.length).toBeGreaterThanOrEqual(10);
    expect(spanish.filter((r) => languageOf(r.text) === "es").length / spanish.length).toBeGreaterThanOrEqual(0.9);
  });

  it("leaves their short English reviews in English (a third of reviews are under 20 words)", () => {
    const short = reviews.filter((r) => r.language === ENGLISH && r.text.split(/\s+/).length < 20);
    expect(short.length).toBeGreaterThan(100);
    expect(short.filter((r) => languageOf(r.text) !== ENGLISH).length).toBeLessThanOrEqual(2);
  });

  it.each([
    ["Great service!", ENGLISH],
    ["Gracias Tony, great job", ENGLISH],
    ["Worst pest outfit in San Antonio.", ENGLISH],
    ["Mahalo 🙏🤙", ENGLISH],
    ["👍👍👍", ENGLISH],
    ["Muy buen servicio, llegaron a tiempo", "es"],
    ["Excelente servicio", "es"],
    ["Tecnico llego tarde y no explico nada, las cucarachas siguen", "es"],
    ["服务很好，技术员很准时。", UNKNOWN],
    ["Служба отличная, техник пришёл вовремя", UNKNOWN],
  ])("tells %j as %s", (text, language) => {
    expect(languageOf(text)).toBe(language);
  });

  // The languages a customer of a business in the Americas may write in besides English and Spanish.
  it.each([
    ["Le technicien est arrivé à l'heure, très professionnel, il a tout expliqué avant de traiter la maison contre les fourmis.", "fr"],
    ["O técnico chegou na hora, muito profissional, explicou tudo antes de tratar a casa e o quintal contra as formigas.", "pt"],
  ])("tells %j by its own words, not as Spanish", (text, language) => {
    expect(languageOf(text)).toBe(language);
  });

  it("tells a long text with no English word of its lists as in another language, a short one as English", () => {
    const german =
      "Der Techniker kam pünktlich, war sehr freundlich und hat alles erklärt, bevor er das Haus und den Garten gegen Ameisen " +
      "behandelt hat; ich kann die Firma nur empfehlen";
    expect(languageOf(german)).toBe(UNKNOWN);
    expect(languageOf("Der Techniker kam pünktlich, sehr freundlich")).toBe(ENGLISH);
  });

  it("names the languages as a sentence puts them after 'in'", () => {
    expect(languageName("es")).toBe("Spanish");
    expect(languageName("pt")).toBe("Portuguese");
    expect(languageName(UNKNOWN)).toBe("another language");
  });
});
