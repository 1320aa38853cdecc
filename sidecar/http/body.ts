/**
 * Request bodies, read with a limit: a declared Content-Length over the limit is refused before
 * anything is read, and a chunked body is read only up to the limit, then dropped with the
 * connection. `request.text()` would read every byte first, however many (docs/faults.md, the
 * chunked body).
 */
export type Body = { ok: true; text: string } | { ok: false; reason: "too_large" | "aborted" };

export async function readBody(request: Request, limit: number): Promise<Body> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return { ok: false, reason: "too_large" };
  if (!request.body) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        // Stop reading, without cancelling: cancel destroys the request and its socket before the
        // 413 is written (listhen's shutdown hook then crashed on the detached socket). The 413
        // goes out with Connection: close, and Node drops the unread rest with the socket.
        reader.releaseLock();
        return { ok: false, reason: "too_large" };
      }
      chunks.push(value);
    }
  } catch {
    // The client went away mid-body (ECONNRESET, "aborted"): nothing to answer, nothing to log.
    return { ok: false, reason: "aborted" };
  }
  return { ok: true, text: Buffer.concat(chunks, size).toString("utf8") };
}

/**
 * Headers for a refusal sent before the body was read: the rest of it is not waited for, so the
 * connection is closed after the answer instead of being drained for the next request.
 */
export const CLOSE_CONNECTION = { connection: "close" } as const;
