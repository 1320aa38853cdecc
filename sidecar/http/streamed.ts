/**
 * A large file's bytes as they are sent, never whole in memory: its blocks read as the consumer
 * asks for them (from the checked dist/ file itself, or from memory).
 */
import { createHmac } from "node:crypto";
import type { StaticFile } from "../bundle.ts";

/** The size of the pieces a file held in memory is sent in (a large one goes by sidecar/dist-file.ts's pieces). */
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
