/**
 * The build cache's keys: each kind of output is kept under a version of the code that makes it
 * (CODE in build/cache/cache.ts: its entries with every module esbuild bundles from them, and a few
 * files), so that a change elsewhere (the figures, the site's templates) leaves the review pages
 * and the analysis cached, and a change to any module behind an output makes it again.
 */
import { existsSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { appendFile, cp, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BuildCache } from "../../build/cache/cache.ts";
import { CODE, modulesOf } from "../../build/cache/versions.ts";
import { decodePart, encodePart, readChecked } from "../../build/cache/file.ts";
import { deserialize, serialize } from "node:v8";
import { REPO_DATA, removeDir, tempDir, tree } from "../../harness/data.ts";
import { runCommand } from "../helpers/run.ts";
import { compiledFolder, nodeScript } from "../../harness/scripts.ts";

const BUILD = nodeScript("build");

const ROOT = new URL("../../", import.meta.url).pathname;

describe("the build cache's versions of the code", () => {
  it("name entries and files that exist", () => {
    for (const { entries, files = [] } of Object.values(CODE)) {
      for (const file of [...entries, ...files]) expect(existsSync(`${ROOT}${file}`), file).toBe(true);
    }
  });

  it("are kept in the compiled folder as computed from the sources, for the Node that computed them", async () => {
    const root = await tempDir();
    try {
      const run = await runCommand(process.execPath, BUILD.args, {
        DATA_DIR: REPO_DATA,
        DIST_DIR: join(root, "dist"),
        BUILD_CACHE_DIR: join(root, "cache"),
        OWNER_REPORT: join(root, "owner.html"),
      });
      expect(run.code).toBe(0);
      const { dir } = await compiledFolder();
      const kept = JSON.parse(await readFile(join(dir, `code-versions-${process.version}.json`), "utf8")) as unknown;
      expect(kept).toEqual((await BuildCache.open(join(root, "from-source"))).versions);
    } finally {
      await removeDir(root);
    }
  });

  it("count every module an entry imports, found by esbuild, not a hand-kept list", async () => {
    const modules = await modulesOf(CODE.month.entries);
    const months = modules.get("build/outputs/months.ts")!;
    // Modules months.ts reaches only through others: the model, the JSON layout of reviews.json.
    expect(months).toEqual(
      expect.arrayContaining([
        "build/outputs/months.ts",
        "insights/sentiment/model.ts",
        "core/dist/reviews-json.ts",
        "core/schema/records.ts",
      ]),
    );
    // Type-only imports are not code: build/cache/cache.ts is imported for its type alone.
    expect(months).not.toContain("build/cache/cache.ts");
  });

  it("name every data file their modules read beside them (a change to a table of words makes what it made stale)", async () => {
    for (const [kind, { entries, files = [] }] of Object.entries(CODE)) {
      const modules = [...new Set([...(await modulesOf(entries)).values()].flat())];
      const read = modules.flatMap((module) => {
        const text = readFileSync(`${ROOT}${module}`, "utf8");
        return [...text.matchAll(/new URL\("\.\/([\w.-]+\.(?:json|weights))", import\.meta\.url\)/g)].map((m) =>
          join(dirname(module), m[1]!),
        );
      });
      for (const file of read) expect(files, `${kind}: ${file}`).toContain(file);
    }
  });
});

/**
 * A copy of the project's code, built from, so that its code can change: the build's code
 * versions are read from the files beside it.
 */
describe("a build after a change to the code", () => {
  let root: string;
  let code: string;
  let dist: string;
  const page = () => join(dist, "reviews", "r-2025-001.html");

  /** `npm run build` in the copy, with its cache; `off` for a clean build. */
  const buildIn = async (distDir: string, cache: string) => {
    // package.json's command in the copy: its code compiled (scripts/build.mjs), again after each change.
    const run = await runCommand(
      process.execPath,
      BUILD.args,
      { DATA_DIR: REPO_DATA, DIST_DIR: distDir, BUILD_CACHE_DIR: cache, BASE_URL: "https://reviews.code-change.example" },
      code,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  };

  beforeAll(async () => {
    root = await tempDir();
    code = join(root, "code");
    dist = join(root, "dist");
    for (const part of ["build", "insights", "core", "views", "site", "scripts", "package.json", "package-lock.json", "tsconfig.json"])
      await cp(join(ROOT, part), join(code, part), { recursive: true });
    await symlink(join(ROOT, "node_modules"), join(code, "node_modules"));
    await buildIn(dist, join(root, "cache"));
  });
  afterAll(() => removeDir(root));

  /**
   * Change `file` in the copy and build again with the cache: the result must be what a clean
   * build writes. Whether a review page was kept (same inode and time) or written again.
   */
  const afterChanging = async (file: string): Promise<{ pageKept: boolean }> => {
    const before = await stat(page());
    await appendFile(join(code, file), `\n// A change to ${file}.\n`);
    await buildIn(dist, join(root, "cache"));
    const after = await stat(page());
    const clean = join(root, `clean-${file.replaceAll("/", "-")}`);
    await buildIn(clean, "off");
    expect(await tree(dist)).toEqual(await tree(clean));
    return { pageKept: before.ino === after.ino && before.mtimeMs === after.mtimeMs };
  };

  it("keeps the review pages when the change is elsewhere (the figures), and writes what a clean build writes", async () => {
    expect(await afterChanging("insights/figures.ts")).toEqual({ pageKept: true });
  });

  it("writes every review page again when the change is to the page's template", async () => {
    expect(await afterChanging("views/html.ts")).toEqual({ pageKept: false });
  });
});

describe("a part kept in the build cache", () => {
  // A month's part holds its bytes in large byte arrays, written as they are beside its head.
  const value = {
    month: "2026-01",
    json: Buffer.from("x".repeat(50_000)),
    small: Uint8Array.from([1, 2, 3]),
    figures: { parts: [{ json: Buffer.from("é".repeat(10_000)), count: 3 }], counts: new Int32Array([4, 5, 6]), seen: new Map([["a", 1]]) },
  };

  it("reads back as it was kept, its large byte arrays too", async () => {
    const cache = await BuildCache.open(await tempDir());
    cache.store<typeof value>("month").set(value, "2026-01");
    await cache.settled();
    const read = await cache.store<typeof value>("month").get("2026-01");
    expect(Buffer.from(read!.json).equals(value.json)).toBe(true);
    expect(Buffer.from(read!.figures.parts[0]!.json).equals(value.figures.parts[0]!.json)).toBe(true);
    expect({ ...read, json: undefined, figures: { ...read!.figures, parts: undefined } }).toEqual({
      ...value,
      json: undefined,
      figures: { ...value.figures, parts: undefined },
    });
  });

  it("is refused when a byte array in it is altered or cut, with its hash kept beside it or not", async () => {
    const dir = await tempDir();
    const cache = await BuildCache.open(dir);
    const store = cache.store<typeof value>("month");
    store.set(value, "2026-01");
    await cache.settled();
    const file = join(dir, "month-2026-01.v8");
    const bytes = await readFile(file);
    const at = bytes.indexOf("xxxx");
    await writeFile(file, Buffer.concat([bytes.subarray(0, at), Buffer.from("XXXX"), bytes.subarray(at + 4)]));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await store.get("2026-01")).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("does not match its hash"));
    warn.mockRestore();
    // Cut short, with a hash made for what is left: the head's sizes do not add up.
    const cut = bytes.subarray(0, bytes.length - 10);
    await writeFile(file, cut);
    await writeFile(`${file}.sha256`, createHash("sha256").update(cut).digest("hex"));
    expect(await store.get("2026-01")).toBeUndefined();
  });

  it("read ahead, is checked on another thread when large: an altered part refused, the others read back, a missing one missing", async () => {
    const dir = await tempDir();
    const cache = await BuildCache.open(dir);
    const store = cache.store<typeof value>("month");
    // Three parts of 9 MB: 16 MB or more in all are hashed on a worker thread (build/cache/file.ts).
    const large = (c: string) => ({ ...value, json: Buffer.alloc(9 << 20, c) });
    for (const [month, c] of [
      ["2026-01", "a"],
      ["2026-02", "b"],
      ["2026-03", "c"],
    ] as const)
      store.set(large(c), month);
    await cache.settled();
    const file = join(dir, "month-2026-02.v8");
    const bytes = await readFile(file);
    bytes[bytes.length - 100] = "B".charCodeAt(0);
    await writeFile(file, bytes);
    // Checked by the worker: readChecked has no fallback to this thread.
    const paths = ["01", "02", "03", "04"].map((m) => join(dir, `month-2026-${m}.v8`));
    expect((await readChecked(paths)).map((b) => (b instanceof Buffer ? b.length : b))).toEqual([
      (await stat(paths[0]!)).size,
      "altered",
      (await stat(paths[2]!)).size,
      undefined,
    ]);
    const again = await BuildCache.open(dir);
    again.readAhead("month");
    const months = again.store<typeof value>("month");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const [first, second, third, fourth] = await Promise.all(["2026-01", "2026-02", "2026-03", "2026-04"].map((m) => months.get(m)));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("month-2026-02.v8 does not match its hash"));
    warn.mockRestore();
    expect(second).toBeUndefined();
    expect(fourth).toBeUndefined();
    expect(Buffer.from(first!.json).equals(large("a").json)).toBe(true);
    expect(Buffer.from(third!.json).equals(large("c").json)).toBe(true);
    await removeDir(dir);
  });

  it("is refused when its head places a byte array anywhere but where it was taken from", () => {
    const runs = encodePart("v1", value);
    expect(decodePart(Buffer.concat(runs), "v1")).toMatchObject({ month: "2026-01" });
    expect(decodePart(Buffer.concat(runs), "v2")).toBeUndefined();
    // A head rewritten to put the first byte array on an object's prototype, or on a key it does not have.
    for (const at of [["__proto__"], ["figures", "nothing"], ["month", "length"]]) {
      const head = deserialize(runs[1]!) as { holes: { at: unknown[] }[] };
      head.holes[0]!.at = at;
      const rewritten = serialize(head);
      const length = Buffer.alloc(4);
      length.writeUInt32LE(rewritten.length);
      expect(() => decodePart(Buffer.concat([length, rewritten, ...runs.slice(2)]), "v1"), at.join(".")).toThrow(/no place/);
    }
  });
});
