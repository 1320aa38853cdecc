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
 * by commas, with how many items it holds), so that a list made of many months' parts is put
 * together without parsing or stringifying an item again. `toJson` writes it as the list it
 * stands for.
 */
export class JsonList {
  constructor(
    /** Each part: one or more items' JSON, joined by commas. */
    readonly parts: readonly string[],
    /** How many items each part holds. */
    readonly counts: readonly number[],
  ) {}

  /** How many items, in all. */
  get length(): number {
    return this.counts.reduce((n, c) => n + c, 0);
  }

  static of(items: readonly unknown[]): JsonList {
    return items.length ? new JsonList([items.map((item) => JSON.stringify(item)).join(",")], [items.length]) : EMPTY;
  }

  /** A list from parts kept as plain data (a cache keeps no class). */
  static fromParts(parts: readonly { json: string; count: number }[]): JsonList {
    const kept = parts.filter((p) => p.count > 0);
    return new JsonList(kept.map((p) => p.json), kept.map((p) => p.count));
  }

  static join(lists: readonly JsonList[]): JsonList {
    return new JsonList(lists.flatMap((list) => list.parts), lists.flatMap((list) => list.counts));
  }

  /** The items, parsed. */
  items(): unknown[] {
    return this.parts.flatMap((part) => JSON.parse(`[${part}]`) as unknown[]);
  }

  /** The first `n` and the last `n` items, parsed from the text at either end only. */
  ends(n: number): unknown[] {
    if (this.length <= 2 * n) return this.items();
    const first: unknown[] = [];
    for (let i = 0; first.length < n; i++) first.push(...parsed(this.parts[i]!.slice(0, afterItems(this.parts[i]!, n - first.length))));
    const last: unknown[] = [];
    for (let i = this.parts.length - 1; last.length < n; i--) last.unshift(...parsed(this.parts[i]!.slice(beforeItems(this.parts[i]!, n - last.length) + 1)));
    return [...first, ...last];
  }
}

const EMPTY = new JsonList([], []);
const parsed = (items: string) => JSON.parse(`[${items}]`) as unknown[];

// Character codes the scans below look for.
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN = new Set([123, 91]);
const CLOSE = new Set([125, 93]);

/** Where the first `k` items of a part end (the comma after them, or the end of the text). */
function afterItems(text: string, k: number): number {
  let depth = 0;
  let inString = false;
  let items = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (OPEN.has(c)) depth++;
    else if (CLOSE.has(c)) depth--;
    else if (c === COMMA && depth === 0 && ++items === k) return i;
  }
  return text.length;
}

/** Where the last `k` items of a part start, less one (the comma before them, or -1), read from the end. */
function beforeItems(text: string, k: number): number {
  let depth = 0;
  let inString = false;
  let items = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // A quote ends or starts a string unless an odd number of backslashes escapes it.
      let backslashes = 0;
      while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) inString = !inString;
    } else if (inString) continue;
    else if (CLOSE.has(c)) depth++;
    else if (OPEN.has(c)) depth--;
    else if (c === COMMA && depth === 0 && ++items === k) return i;
  }
  return -1;
}

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
