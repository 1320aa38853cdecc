/** The strong ETag of the `dist/` format: the first 128 bits of the content's SHA-256, in hex. */
import { createHash, type BinaryToTextEncoding } from "node:crypto";

/** The ETag of some bytes, given whole or as runs one after the other. */
export function strongEtag(body: string | Uint8Array | readonly Uint8Array[]): string {
  return etagOf(digestOf("sha256", typeof body === "string" || body instanceof Uint8Array ? [body] : body, "hex"));
}

/** The strong ETag of content whose SHA-256 (in hex) is `sha256`. */
export const etagOf = (sha256: string): string => `"${sha256.slice(0, 32)}"`;

/** A hash of bytes given as runs one after the other, never put together. */
export function digestOf(algorithm: "sha1" | "sha256", runs: readonly (string | Uint8Array)[], encoding: BinaryToTextEncoding): string {
  const hash = createHash(algorithm);
  for (const run of runs) hash.update(run);
  return hash.digest(encoding);
}
