/**
 * A technician, service, town or aspect named by a client, resolved the same way by the search
 * (`mentions_technician`) and by the MCP tools (`get_insights`). Contract: an id or a name,
 * ignoring case; a first word alone when exactly one has it; more than one is an error naming them.
 */
export interface Named {
  id: string;
  name: string;
}

export function resolveName<T extends Named>(list: readonly T[], value: string, noun: string): T | { message: string } {
  const v = value.trim().toLowerCase();
  const exact = list.find((t) => t.id === v || t.name.toLowerCase() === v);
  if (exact) return exact;
  const byFirst = list.filter((t) => t.name.toLowerCase().split(/\s+/)[0] === v);
  if (byFirst.length === 1) return byFirst[0]!;
  const names = (ts: readonly T[]) => ts.map((t) => `${t.id} (${t.name})`).join(", ");
  if (byFirst.length > 1) return { message: `"${value}" names more than one ${noun}; use one of: ${names(byFirst)}` };
  return { message: `no ${noun} with that id or name; expected one of: ${names(list) || "none yet"}` };
}
