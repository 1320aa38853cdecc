/** The strong ETag of the `dist/` format: the first 128 bits of the content's SHA-256, in hex. */
import { createHash, type Hash } from "node:crypto";

/** The ETag of some bytes. */
export function strongEtag(body: string | Uint8Array): string {
  return etagOf(createHash("sha256").update(body));
}

/** The ETag of a SHA-256 fed elsewhere (a file streamed through it). */
export function etagOf(sha256: Hash): string {
  return `"${sha256.digest("hex").slice(0, 32)}"`;
}
