/** JSON text read without throwing: a file or line that is not JSON is `undefined`, for the caller to name. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A long list kept as JSON text: the text of its items in parts (each part the items' JSON joined
 * by commas), so that a list made of many months' parts is put together without parsing or
 * stringifying an item again. `toJson` writes it as the list it stands for.
 */
export class JsonList {
  constructor(
    /** Each part: one or more items' JSON, joined by commas. */
    readonly parts: readonly string[],
    /** How many items, in all. */
    readonly length: number,
  ) {}

  static of(items: readonly unknown[]): JsonList {
    return items.length ? new JsonList([items.map((item) => JSON.stringify(item)).join(",")], items.length) : EMPTY;
  }

  /** A list from parts kept as plain data (a cache keeps no class). */
  static fromParts(parts: readonly { json: string; count: number }[]): JsonList {
    return new JsonList(parts.filter((p) => p.count > 0).map((p) => p.json), parts.reduce((n, p) => n + p.count, 0));
  }

  static join(lists: readonly JsonList[]): JsonList {
    return new JsonList(lists.flatMap((list) => list.parts), lists.reduce((n, list) => n + list.length, 0));
  }

  /** The items, parsed. */
  items(): unknown[] {
    return this.parts.flatMap((part) => JSON.parse(`[${part}]`) as unknown[]);
  }

  /** The first `n` and the last `n` items, parsed from the parts at either end only. */
  ends(n: number): unknown[] {
    if (this.length <= 2 * n) return this.items();
    const first: unknown[] = [];
    for (let i = 0; first.length < n; i++) first.push(...(JSON.parse(`[${this.parts[i]}]`) as unknown[]));
    const last: unknown[] = [];
    for (let i = this.parts.length - 1; last.length < n; i--) last.unshift(...(JSON.parse(`[${this.parts[i]}]`) as unknown[]));
    return [...first.slice(0, n), ...last.slice(-n)];
  }
}

const EMPTY = JsonList.join([]);

/** JSON.stringify's text for `value`, with each JsonList in it written as its list. */
export function toJson(value: unknown): string {
  if (value instanceof JsonList) return `[${value.parts.join(",")}]`;
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined || typeof item === "function" ? "null" : toJson(item))).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members: string[] = [];
    for (const [key, member] of Object.entries(value)) if (member !== undefined && typeof member !== "function") members.push(`${JSON.stringify(key)}:${toJson(member)}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value);
}
