/**
 * The manifest of a built `dist/` (`_manifest.json`): every public file with its strong ETag
 * (core/dist/etag.ts), Last-Modified (from the data, never the clock), content type and
 * precompressed copies, and the withdrawn reviews. build/outputs/manifest.ts writes it; the sidecar
 * serves from it and the hub compares its hashes to know which topics changed.
 */
import { z } from "zod";
import { Withdrawal } from "../schema/public.ts";

export const MANIFEST_FILE = "_manifest.json";

export interface ManifestEntry {
  /** Path under DIST_DIR, with forward slashes. */
  file: string;
  etag: string;
  last_modified: string;
  content_type: string;
  bytes: number;
  /** Precompressed copies beside the file, by content coding. */
  encodings: Partial<Record<"br" | "gzip", { file: string; bytes: number }>>;
}

export interface Manifest {
  version: 1;
  base_url: string;
  updated: string;
  /** Keyed by URL path, e.g. `/api/feed.json`. */
  files: Record<string, ManifestEntry>;
  /** Reviews taken down, for `since`'s `removed`; oldest first. */
  withdrawn: Withdrawal[];
}

/** What a reader accepts: the same shape, checked. */
export const ManifestSchema = z.object({
  version: z.literal(1),
  base_url: z.string(),
  updated: z.string(),
  files: z.record(
    z.string().startsWith("/"),
    z.object({
      file: z.string(),
      etag: z.string().regex(/^"[0-9a-f]{32}"$/),
      last_modified: z.iso.datetime(),
      content_type: z.string(),
      bytes: z.int(),
      encodings: z.object({ br: z.object({ file: z.string() }).optional(), gzip: z.object({ file: z.string() }).optional() }),
    }),
  ),
  withdrawn: z.array(Withdrawal),
});
