/**
 * A large file's bytes as they are sent, never whole in memory: its blocks read as the consumer
 * asks for them (from the bundle's spill, checked, or from memory), and the same bytes as the
 * contents of a JSON string, for an answer that carries a file as text (MCP resources/read).
 */
import { createHmac } from "node:crypto";
import type { StaticFile } from "../bundle.ts";
import type { Streamed } from "./respond.ts";

/** The size of the pieces a file held in memory is sent in (a spilled one goes by its blocks). */
const PIECE = 256 * 1024;

/** The file's bytes, piece by piece, each read when the consumer asks for it. */
export function fileStream(file: StaticFile): ReadableStream<Uint8Array> {
  const body = file.body;
  if (!Buffer.isBuffer(body)) return body.open();
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull: (controller) => {
        if (at >= body.length) return controller.close();
        controller.enqueue(body.subarray(at, (at += PIECE)));
      },
    },
    { highWaterMark: 0 },
  );
}

/** The file's bytes in order, a piece at a time (for a hash: nothing of it is kept). */
export async function* filePieces(file: StaticFile): AsyncGenerator<Uint8Array> {
  const reader = fileStream(file).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** WebSub's X-Hub-Signature value for the file, computed a piece at a time. */
export async function signatureOf(file: StaticFile, secret: string): Promise<string> {
  const hmac = createHmac("sha256", secret);
  for await (const piece of filePieces(file)) hmac.update(piece);
  return `sha256=${hmac.digest("hex")}`;
}

/**
 * What JSON.stringify writes for each ASCII byte inside a string (undefined: the byte itself).
 * Only ASCII is escaped, and no byte of a multi-byte UTF-8 sequence is ASCII, so valid UTF-8 is
 * escaped correctly a byte at a time, across any split into pieces.
 */
const ESCAPES: (Buffer | undefined)[] = Array.from({ length: 128 }, (_, byte) => {
  const char = String.fromCharCode(byte);
  const json = JSON.stringify(char).slice(1, -1);
  return json === char ? undefined : Buffer.from(json);
});

/** How many bytes longer `bytes` is once escaped. */
function escapedExtra(bytes: Uint8Array): number {
  let extra = 0;
  for (let i = 0; i < bytes.length; i++) {
    const e = bytes[i]! < 128 ? ESCAPES[bytes[i]!] : undefined;
    if (e) extra += e.length - 1;
  }
  return extra;
}

/** `bytes` (UTF-8) escaped as the inside of a JSON string. */
export function escapeJsonString(bytes: Uint8Array): Buffer {
  const extra = escapedExtra(bytes);
  if (extra === 0) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = Buffer.allocUnsafe(bytes.length + extra);
  let o = 0;
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    const e = bytes[i]! < 128 ? ESCAPES[bytes[i]!] : undefined;
    if (!e) continue;
    out.set(bytes.subarray(from, i), o);
    o += i - from;
    o += e.copy(out, o);
    from = i + 1;
  }
  out.set(bytes.subarray(from), o);
  return out;
}

/** The escaped length of each file's bytes, counted once (a file's bytes never change). */
const escapedLengths = new WeakMap<StaticFile, number>();

async function escapedLength(file: StaticFile): Promise<number> {
  let length = escapedLengths.get(file);
  if (length === undefined) {
    length = 0;
    for await (const piece of filePieces(file)) length += piece.length + escapedExtra(piece);
    escapedLengths.set(file, length);
  }
  return length;
}

/** `before`, the file's bytes as the inside of a JSON string, then `after`: streamed, with its length. */
export async function withFileAsJsonString(before: string, file: StaticFile, after: string): Promise<Streamed> {
  const head = Buffer.from(before);
  const tail = Buffer.from(after);
  const length = head.length + (await escapedLength(file)) + tail.length;
  return {
    length,
    open: () => {
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      let ended = false;
      return new ReadableStream<Uint8Array>(
        {
          pull: async (controller) => {
            if (!reader) {
              reader = fileStream(file).getReader();
              return controller.enqueue(head);
            }
            if (ended) return controller.close();
            const { done, value } = await reader.read();
            if (done) {
              ended = true;
              return controller.enqueue(tail);
            }
            controller.enqueue(escapeJsonString(value));
          },
          cancel: (reason) => reader?.cancel(reason),
        },
        { highWaterMark: 0 },
      );
    },
  };
}
