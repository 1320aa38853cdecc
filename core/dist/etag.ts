/** The strong ETag of the `dist/` format: the first 128 bits of the content's SHA-256, in hex. */
import { createHash } from "node:crypto";

/** The ETag of some bytes, given whole or as runs one after the other. */
export function strongEtag(body: string | Uint8Array | readonly Uint8Array[]): string {
  const sha = createHash("sha256");
  for (const run of typeof body === "string" || body instanceof Uint8Array ? [body] : body) sha.update(run);
  return `"${sha.digest("hex").slice(0, 32)}"`;
}
