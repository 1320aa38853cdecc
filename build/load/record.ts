/**
 * The build's own record of a data folder, kept in BUILD_CACHE_DIR beside the cache's parts but
 * not one of them: it is not dropped when the code changes, since what it holds cannot be made
 * again from the data. It holds what each review said in the last build and in the last deploy
 * (`npm run hub:ping` copies the one to the other, after checking that DIST_DIR is that build's),
 * and the change times the build gave to edits nobody dated. The build never writes into
 * DATA_DIR: an edit it notices is published with the time kept here.
 *
 * Only what a deploy saw counts as published: a review built and deleted before a deploy is
 * forgotten, one deployed and deleted stops the build until it is withdrawn, and an edit is
 * noticed against the deployed words.
 */
import { createHash } from "node:crypto";
import { readFile, writeFile, rename, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";

/** When a review says it last changed: its own `updated` or reply date, or one the build gave it. */
export interface Noticed {
  /** What the review said (build/load/unflagged.ts: saidOf) when the build gave it this time. */
  said: string;
  /** Its text or stars changed: published with this `updated`. */
  updated?: string;
  /** Only its reply changed: published with this `response.date`. */
  answered?: string;
}

export interface DataRecord {
  /** The data folder it is the record of. */
  folder: string;
  /** The last build's published reviews, by id: the file holding each and what it said; reviews.json's ETag in its dist/. */
  built: { said: Record<string, [string, string]>; etag?: string };
  /** The same of the build last deployed, or none when no deploy was recorded. */
  deployed?: Record<string, [string, string]>;
  /** The edits noticed, by review id, while the review still says the same. */
  noticed: Record<string, Noticed>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Where the record of `folder` is kept in the cache folder `cacheDir`. */
export function recordPath(cacheDir: string, folder: string): string {
  return join(cacheDir, `record-${sha256(resolve(folder)).slice(0, 16)}.json`);
}

/**
 * The record of `folder`, or undefined when there is none. One whose hash (kept on its last line)
 * does not match is refused with one line on stderr, as a damaged cache part is.
 */
export async function readBuildRecord(cacheDir: string, folder: string): Promise<DataRecord | undefined> {
  const path = recordPath(cacheDir, folder);
  const text = await readFile(path, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const cut = text.lastIndexOf("\n", text.length - 2);
  const body = text.slice(0, cut + 1);
  try {
    if (cut < 0 || text.slice(cut + 1).trim() !== sha256(body)) throw new Error("hash");
    const record = JSON.parse(body) as DataRecord;
    if (record.folder !== resolve(folder)) throw new Error("folder");
    return record;
  } catch {
    console.warn(`build: the record ${path} does not match its hash (damaged or altered): not used, made again`);
    return undefined;
  }
}

/** Keep the record, replacing the old one whole; its hash on its last line. */
export async function writeBuildRecord(cacheDir: string, record: DataRecord): Promise<void> {
  const path = recordPath(cacheDir, record.folder);
  const body = `${JSON.stringify(record)}\n`;
  await mkdir(cacheDir, { recursive: true });
  await writeFile(`${path}.${process.pid}.tmp`, `${body}${sha256(body)}\n`);
  await rename(`${path}.${process.pid}.tmp`, path);
}

/**
 * After a deploy of `distDir`: its reviews become the published ones. Refused (with the reason)
 * when the last build of `folder` recorded here did not make that dist/.
 */
export async function recordDeploy(cacheDir: string, folder: string, distDir: string): Promise<number> {
  const record = await readBuildRecord(cacheDir, folder);
  if (!record) throw new Error(`no build of ${folder} is recorded in ${cacheDir}`);
  const manifest = JSON.parse(await readFile(join(distDir, "_manifest.json"), "utf8")) as { files: Record<string, { etag: string }> };
  if (record.built.etag === undefined || manifest.files["/reviews.json"]?.etag !== record.built.etag)
    throw new Error(`${distDir} is not the last build of ${folder} recorded in ${cacheDir}`);
  await writeBuildRecord(cacheDir, { ...record, deployed: record.built.said });
  return Object.keys(record.built.said).length;
}
