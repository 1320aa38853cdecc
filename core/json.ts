/** JSON text read without throwing: a file or line that is not JSON is `undefined`, for the caller to name. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Some items of a list as JSON: their JSON joined by commas, as UTF-8, and how many there are. Plain data, so that a cache can keep it. */
export interface JsonPart {
  json: Uint8Array;
  count: number;
}

export function jsonPart(items: readonly unknown[]): JsonPart {
  return { json: Buffer.from(items.map((item) => JSON.stringify(item)).join(",")), count: items.length };
}

/** UTF-8 bytes as text (a cache gives back a Uint8Array, not a Buffer). */
export function utf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/** A part's items, parsed. */
export function itemsOf(part: JsonPart): unknown[] {
  return part.count ? (JSON.parse(`[${utf8(part.json)}]`) as unknown[]) : [];
}

/**
 * A long list kept as JSON: its items in parts (JsonPart), so that a list made of many months'
 * parts is put together without parsing or stringifying an item again. `toJson` writes it as the
 * list it stands for.
 */
export class JsonList {
  private constructor(readonly parts: readonly JsonPart[]) {}

  /** How many items, in all. */
  get length(): number {
    return this.parts.reduce((n, p) => n + p.count, 0);
  }

  static of(items: readonly unknown[]): JsonList {
    return new JsonList(items.length ? [jsonPart(items)] : []);
  }

  static fromParts(parts: readonly JsonPart[]): JsonList {
    return new JsonList(parts.filter((p) => p.count > 0));
  }

  static join(lists: readonly JsonList[]): JsonList {
    return new JsonList(lists.flatMap((list) => list.parts));
  }

  /** The items, parsed. */
  items(): unknown[] {
    return this.parts.flatMap(itemsOf);
  }

  /** The first `n` and the last `n` items, parsed from the bytes at either end only. */
  ends(n: number): unknown[] {
    if (this.length <= 2 * n) return this.items();
    const parse = (bytes: Uint8Array) => JSON.parse(`[${utf8(bytes)}]`) as unknown[];
    const first: unknown[] = [];
    for (let i = 0; first.length < n; i++) {
      const { json } = this.parts[i]!;
      first.push(...parse(json.subarray(0, afterItems(json, n - first.length))));
    }
    const last: unknown[] = [];
    for (let i = this.parts.length - 1; last.length < n; i--) {
      const { json } = this.parts[i]!;
      last.unshift(...parse(json.subarray(beforeItems(json, n - last.length) + 1)));
    }
    return [...first, ...last];
  }
}

// Bytes the scans below look for (in UTF-8, no byte of a longer character is one of them).
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN = new Set([123, 91]);
const CLOSE = new Set([125, 93]);

/** Where the first `k` items of a part end (the comma after them, or the end). */
function afterItems(json: Uint8Array, k: number): number {
  let depth = 0;
  let inString = false;
  let items = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (OPEN.has(c)) depth++;
    else if (CLOSE.has(c)) depth--;
    else if (c === COMMA && depth === 0 && ++items === k) return i;
  }
  return json.length;
}

/** Where the last `k` items of a part start, less one (the comma before them, or -1), read from the end. */
function beforeItems(json: Uint8Array, k: number): number {
  let depth = 0;
  let inString = false;
  let items = 0;
  for (let i = json.length - 1; i >= 0; i--) {
    const c = json[i]!;
    if (c === QUOTE) {
      // A quote ends or starts a string unless an odd number of backslashes escapes it.
      let backslashes = 0;
      while (json[i - 1 - backslashes] === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) inString = !inString;
    } else if (inString) continue;
    else if (CLOSE.has(c)) depth++;
    else if (OPEN.has(c)) depth--;
    else if (c === COMMA && depth === 0 && ++items === k) return i;
  }
  return -1;
}

/**
 * A piece of a JSON text: `older` for the older parts of a JsonList (all but the first, newest
 * first as the build's lists are), which change less often than the rest.
 */
export interface JsonPiece {
  /** One or more runs of bytes, one after the other. */
  bytes: Uint8Array[];
  older: boolean;
}

const COMMA_BYTES = Buffer.from(",");

/** JSON.stringify's text for `value`, as UTF-8 pieces, with each JsonList in it written as its list. */
export function jsonPieces(value: unknown): JsonPiece[] {
  const out: JsonPiece[] = [];
  let text = "";
  const flush = () => {
    if (text) out.push({ bytes: [Buffer.from(text)], older: false });
    text = "";
  };
  const walk = (v: unknown): void => {
    if (v instanceof JsonList) {
      text += "[";
      const [first, ...older] = v.parts;
      if (first) {
        flush();
        out.push({ bytes: [first.json], older: false });
      }
      if (older.length) out.push({ bytes: older.flatMap((part) => [COMMA_BYTES, part.json]), older: true });
      text += "]";
    } else if (Array.isArray(v)) {
      text += "[";
      v.forEach((item, i) => {
        if (i) text += ",";
        if (item === undefined || typeof item === "function") text += "null";
        else walk(item);
      });
      text += "]";
    } else if (v !== null && typeof v === "object") {
      text += "{";
      let first = true;
      for (const [key, member] of Object.entries(v)) {
        if (member === undefined || typeof member === "function") continue;
        text += `${first ? "" : ","}${JSON.stringify(key)}:`;
        first = false;
        walk(member);
      }
      text += "}";
    } else text += JSON.stringify(v);
  };
  walk(value);
  flush();
  return out;
}

/** JSON.stringify's text for `value` as UTF-8, with each JsonList in it written as its list. */
export function toJson(value: unknown): Buffer {
  return Buffer.concat(jsonPieces(value).flatMap((piece) => piece.bytes));
}
