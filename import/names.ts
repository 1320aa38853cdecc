/**
 * Reading the business's names: a technician, service or area as a source or a review's text
 * writes it, to its id in technicians.json, services.json and service-areas.json. Technicians by
 * full name, a nickname the business lists (`aliases`), a first name only one of them has, or a
 * first name with an initial ("Chris P."); services by their names, ids and usual words
 * (import/words.json); areas by town names.
 */
import { readFileSync } from "node:fs";
import { namings, phrase, plain } from "../core/names.ts";
import { stemOf, WORD } from "../core/words.ts";
import type { Service, ServiceArea, Technician } from "../core/schema/records.ts";

const USUAL: Record<string, string[]> = JSON.parse(readFileSync(new URL("./words.json", import.meta.url), "utf8"));
/** Words of a service's name that say what kind of work, not which pest. */
const GENERIC = new Set([
  "control",
  "treatment",
  "service",
  "services",
  "plan",
  "pest",
  "general",
  "removal",
  "one",
  "time",
  "program",
  "and",
  "heat",
  "maintenance",
]);

export interface Lists {
  technicians: Technician[];
  services: Service[];
  areas: ServiceArea[];
}

export { plain };

/** The technicians `text` names, each once, in the order first named; a name two of them share names neither. */
export function technicianIds(text: string, technicians: readonly Technician[]): string[] {
  return [...new Set(namings(text, technicians).flatMap((n) => (n.ids.length === 1 ? n.ids : [])))];
}

/** A technician as a jobs export or survey column writes them (full name, alias, id, first name), or undefined. */
export function technicianId(name: string, technicians: readonly Technician[]): string | undefined {
  const p = plain(name);
  const exact = technicians.find((t) => t.id === name.trim() || [t.name, ...(t.aliases ?? [])].some((n) => plain(n) === p));
  if (exact) return exact.id;
  const found = technicianIds(name, technicians);
  return found.length === 1 ? found[0] : undefined;
}

const stems = (text: string) => new Set((plain(text).match(WORD) ?? []).map(stemOf));

/** The words by which a service is known: its name's words that say which pest or work, with their usual words. */
function serviceWords(service: Service): string[][] {
  const heads = (plain(service.name).match(WORD) ?? []).filter((w) => !GENERIC.has(w));
  return heads.map((w) => [w, ...(USUAL[w] ?? [])]);
}

/**
 * The services `text` is about: named in full, or by the first word of its name that says which
 * pest or work (or that word's usual words: "mice" for rodents). Where services share that word
 * ("termite inspection", "termite treatment"), the text must say their other words too; a service
 * whose words are all part of another found one's gives way to it ("rodent exclusion" over
 * "rodent control" when the text says both rodents and sealing).
 */
export function serviceIds(text: string, services: readonly Service[]): string[] {
  const have = stems(text);
  const says = (word: string) => (word.includes(" ") ? phrase(word).test(text) : have.has(stemOf(word)));
  const heads = (s: Service) => serviceWords(s).map((ws) => ws[0]!);
  const byFirst = new Map<string, Service[]>();
  for (const s of services) if (heads(s).length > 0) byFirst.set(heads(s)[0]!, [...(byFirst.get(heads(s)[0]!) ?? []), s]);
  const found = services.filter((s) => phrase(s.name).test(text));
  for (const group of byFirst.values()) {
    if (!serviceWords(group[0]!)[0]!.some(says)) continue;
    const whole = group.filter((s) => serviceWords(s).every((ws) => ws.some(says)));
    found.push(...(whole.length > 0 ? whole : group.length === 1 ? group : []));
  }
  return [...new Set(found)]
    .filter((s) => !found.some((o) => o !== s && heads(o).length > heads(s).length && heads(s).every((h) => heads(o).includes(h))))
    .map((s) => s.id);
}

/** A service as a column writes it: its id, its name, or a name whose words name one service. */
export function serviceId(name: string, services: readonly Service[]): string | undefined {
  const exact = services.find((s) => s.id === name.trim() || plain(s.name) === plain(name));
  if (exact) return exact.id;
  const found = serviceIds(name, services);
  return found.length === 1 ? found[0] : undefined;
}

/** The one area whose town `text` names; none when it names none or several. */
export function areaId(text: string, areas: readonly ServiceArea[]): string | undefined {
  const found = areas.filter((a) => a.id === plain(text).replace(/ /g, "-") || phrase(a.name).test(text));
  return found.length === 1 ? found[0]!.id : undefined;
}
