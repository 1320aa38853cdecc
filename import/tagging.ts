/**
 * A new review's technicians, services and area: from its visit where it was matched to one,
 * else from the source's own columns (a survey's technician column), else from what its text
 * names. Each field is filled from the first of them that says it; every tag filled is listed in
 * the report, and so is every name that fits nothing listed.
 */
import type { Incoming } from "./incoming.ts";
import type { Visit } from "./jobs.ts";
import { areaId, serviceId, serviceIds, technicianId, technicianIds, type Lists } from "./names.ts";
import type { Report } from "./report.ts";

export interface Tags {
  technicians: string[];
  services: string[];
  service_area?: string;
}

export function tagsOf(id: string, review: Incoming & { text: string }, visit: Visit | undefined, lists: Lists, report: Report): Tags {
  const given = visit
    ? { from: `visit ${visit.job}`, technicians: visit.technicians, services: visit.services, area: visit.area }
    : { from: "the source's columns", technicians: review.named.technicians, services: review.named.services, area: review.named.area };
  const unknown = (what: string, name: string, list: string) =>
    report.skipped.push({ where: `${review.where} (${id})`, why: `${what} "${name}" from ${given.from} is not in ${list}; not tagged` });
  const resolve = (names: string[], find: (n: string) => string | undefined, what: string, list: string) => [
    ...new Set(names.flatMap((n) => find(n) ?? (unknown(what, n, list), []))),
  ];
  const tags: Tags = {
    technicians: resolve(given.technicians, (n) => technicianId(n, lists.technicians), "technician", "technicians.json (name or aliases)"),
    services: resolve(given.services, (n) => serviceId(n, lists.services), "service", "services.json"),
  };
  if (given.area) {
    const area = areaId(given.area, lists.areas);
    if (area) tags.service_area = area;
    else unknown("area", given.area, "service-areas.json");
  }
  const note = (field: string, ids: string[], from: string) => ids.length > 0 && report.tags.push({ id, field, ids, from });
  note("technicians", tags.technicians, given.from);
  note("services", tags.services, given.from);
  if (tags.service_area) note("service_area", [tags.service_area], given.from);
  // Where neither a visit nor a column says, the text may.
  if (tags.technicians.length === 0) note("technicians", (tags.technicians = technicianIds(review.text, lists.technicians)), "the text");
  if (tags.services.length === 0) note("services", (tags.services = serviceIds(review.text, lists.services)), "the text");
  if (!tags.service_area) {
    const area = areaId(review.text, lists.areas);
    if (area) note("service_area", [(tags.service_area = area)], "the text");
  }
  return tags;
}
