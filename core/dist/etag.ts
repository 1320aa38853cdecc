/** The strong ETag of the `dist/` format: the first 128 bits of the content's SHA-256, in hex. */
import { createHash } from "node:crypto";

/** The ETag of some bytes. */
export function strongEtag(body: string | Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
}
