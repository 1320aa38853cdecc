/**
 * The bundle's large parts on disk (sidecar/spill.ts): the bytes read back are the bytes loaded,
 * or nothing is sent. Each fault is made for real, by writing into the unlinked spill file through
 * /proc/self/fd, as a failing disk or another process with access would.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readlinkSync, writeFileSync, writeSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BundleRef, loadBundle, type BundleOptions } from "../../sidecar/bundle.ts";
import { Spill } from "../../sidecar/spill.ts";
import { tempDir } from "../../harness/data.ts";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";
import { until } from "../../harness/until.ts";

const open: Sidecar[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** The spill files this process holds open in `dir`, by fd. */
function spillFds(dir: string): number[] {
  return readdirSync("/proc/self/fd")
    .map(Number)
    .filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${dir}/.bundle-`);
      } catch {
        return false;
      }
    });
}

/**
 * Overwrite an occurrence of `find` in the spill file at `path` (its unlinked name) with `replace`:
 * by default the last, in the region written last (reviews.json's, after the search texts).
 */
function tamper(path: string, find: string, replace: string, which: "first" | "last" = "last"): void {
  const fd = spillFds(path.slice(0, path.lastIndexOf("/"))).find((n) => readlinkSync(`/proc/self/fd/${n}`) === `${path} (deleted)`);
  expect(fd, "the spill file is open").toBeDefined();
  const bytes = readFileSync(`/proc/self/fd/${fd}`);
  const at = which === "first" ? bytes.indexOf(find) : bytes.lastIndexOf(find);
  expect(at, `${find} is in the spill`).toBeGreaterThanOrEqual(0);
  const writable = openSync(`/proc/self/fd/${fd}`, "r+");
  writeSync(writable, Buffer.from(replace), 0, replace.length, at);
  closeSync(writable);
}

async function sidecarWith(options: BundleOptions): Promise<{ sidecar: Sidecar; dir: string }> {
  const dist = await builtDist();
  const dir = await tempDir();
  const bundle = new BundleRef(await loadBundle(dist, { spillDir: dir, ...options }), dist, { spillDir: dir, ...options });
  const sidecar = await startSidecar(dist, { bundle });
  open.push(sidecar);
  return { sidecar, dir };
}

describe("the bundle's spill", () => {
  it("keeps its bytes in a file nothing else can open by name, and reads them back checked", async () => {
    const dir = await tempDir();
    const spill = await Spill.open(dir);
    expect(spill.where.startsWith(`${dir}/.bundle-`)).toBe(true);
    expect(existsSync(spill.where)).toBe(false);
    const big = Buffer.alloc(600_000, "abc");
    const [one, two] = [spill.write(Buffer.from("hello")), spill.write([big, Buffer.from("tail")])];
    expect(one.readAll().toString()).toBe("hello");
    expect(two.readAll().equals(Buffer.concat([big, Buffer.from("tail")]))).toBe(true);
    const streamed = Buffer.from(await new Response(two.open()).arrayBuffer());
    expect(streamed.equals(Buffer.concat([big, Buffer.from("tail")]))).toBe(true);
    // A fault in a later block: the stream gives the blocks before it, then fails.
    tamper(spill.where, "tail", "TAIL");
    const reader = two.open().getReader();
    expect((await reader.read()).value?.length).toBe(256 * 1024);
    expect((await reader.read()).value?.length).toBe(256 * 1024);
    await expect(reader.read()).rejects.toThrow(/block 2 read back .* does not match what was written/);
    // And in the first block: opening it fails, before anything could be sent.
    tamper(spill.where, "abc", "ABC", "first");
    expect(() => two.open()).toThrow(/block 0/);
  });

  it("takes a region a part at a time, and refuses another region written into the middle of it", async () => {
    for (const spill of [await Spill.open(await tempDir()), await Spill.open(undefined)]) {
      const writer = spill.writer();
      const parts = [Buffer.alloc(300_000, "x"), Buffer.from("middle"), Buffer.alloc(300_000, "y")];
      writer.append(parts[0]!);
      writer.append(parts[1]!);
      const inside = spill.writer();
      inside.append(Buffer.from("elsewhere"));
      expect(() => writer.append(parts[2]!)).toThrow(/written to while a region was being written/);
      expect(inside.done().readAll().toString()).toBe("elsewhere");
      const again = spill.writer();
      for (const part of parts) again.append(part);
      expect(again.done(10).readAll().equals(Buffer.concat(parts))).toBe(true);
    }
  });

  it("holds the parts in memory when the folder cannot be written, and serves the same", async () => {
    // A folder that cannot be made: its parent is a file.
    const unwritable = `${await tempDir()}/file/state`;
    writeFileSync(unwritable.slice(0, -"/state".length), "");
    const spill = await Spill.open(unwritable);
    expect(spill.where).toBe("memory");
    expect(
      spill
        .write([Buffer.from("a"), Buffer.from("bc")])
        .readAll()
        .toString(),
    ).toBe("abc");
    const dist = await builtDist();
    const bundle = new BundleRef(await loadBundle(dist, { spillDir: unwritable, recentBytes: 0, spilledBytes: 1024 }), dist);
    const sidecar = await startSidecar(dist, { bundle });
    open.push(sidecar);
    const res = await fetch(`${sidecar.url}/api/reviews/search?query=quick%20and%20friendly`);
    expect(res.status).toBe(200);
    expect((await res.json()).total).toBeGreaterThan(0);
    expect(await (await fetch(`${sidecar.url}/feed.xml`, { headers: { "accept-encoding": "identity" } })).text()).toBe(
      readFileSync(`${dist}/feed.xml`, "utf8"),
    );
  });

  it("makes the same answers from the spill file as from memory, for positions in any order", async () => {
    const dist = await builtDist();
    const [disk, memory] = await Promise.all([
      loadBundle(dist, { spillDir: await tempDir(), recentBytes: 0 }),
      loadBundle(dist, { spillDir: undefined, recentBytes: 2 ** 31 }),
    ]);
    const reviews = JSON.parse(readFileSync(`${dist}/reviews.json`, "utf8")).reviews as { id: string }[];
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 200; round++) {
      const positions = Array.from({ length: random(40) }, () => random(reviews.length));
      if (round % 2) positions.sort((a, b) => a - b);
      const fromDisk = disk.index.jsonList(positions);
      expect(fromDisk.equals(memory.index.jsonList(positions))).toBe(true);
      expect(JSON.parse(fromDisk.toString())).toEqual(positions.map((p) => reviews[p]));
    }
  });

  it("does not send a review that no longer reads back as loaded: 503, one line, and dist/ is loaded again", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { sidecar } = await sidecarWith({ recentBytes: 0 });
    const path = "/api/reviews/search?query=quick%20and%20friendly";
    const before = await (await fetch(sidecar.url + path)).json();
    expect(before.total).toBeGreaterThan(0);
    const loaded = sidecar.bundle.current;
    tamper(loaded.spill.where, "quick and friendly", "QUICK and friendly");
    const res = await fetch(sidecar.url + path);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.text()).not.toContain("QUICK");
    expect(errors.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("does not match what was written"))).toHaveLength(1);
    await until(() => sidecar.bundle.current !== loaded, "dist/ loaded again");
    expect(await (await fetch(sidecar.url + path)).json()).toEqual(before);
  });

  it("does not confirm a search against a text that no longer reads back as loaded", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { sidecar } = await sidecarWith({});
    const loaded = sidecar.bundle.current;
    // The lowercased texts: "Tyler did a general treatment, …" is in reviews.json with a capital T.
    tamper(loaded.spill.where, "tyler did a general treatment", "tyler did a general treatmenX");
    const res = await fetch(`${sidecar.url}/api/reviews/search?query=${encodeURIComponent("general treatment, quick")}`);
    expect(res.status).toBe(503);
    await until(() => sidecar.bundle.current !== loaded, "dist/ loaded again");
    const again = await (await fetch(`${sidecar.url}/api/reviews/search?query=${encodeURIComponent("general treatment, quick")}`)).json();
    expect(again.total).toBeGreaterThan(0);
  });

  it("does not send a large file that no longer reads back as loaded", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { sidecar } = await sidecarWith({ spilledBytes: 1024 });
    const dist = await builtDist();
    const feed = readFileSync(`${dist}/feed.xml`, "utf8");
    expect(Buffer.isBuffer(sidecar.bundle.current.files.get("/feed.xml")!.body)).toBe(false);
    const loaded = sidecar.bundle.current;
    tamper(loaded.spill.where, "<feed", "<fEed");
    for (const target of sidecar.targets) {
      const res = await target.fetch("/feed.xml", { headers: { "accept-encoding": "identity" } });
      expect(res.status, target.name).toBe(503);
      expect(await res.text(), target.name).not.toContain("fEed");
    }
    await until(() => sidecar.bundle.current !== loaded, "dist/ loaded again");
    expect(await (await fetch(`${sidecar.url}/feed.xml`, { headers: { "accept-encoding": "identity" } })).text()).toBe(feed);
  });

  it("closes the spill file of each bundle a reload replaced", async () => {
    const { sidecar, dir } = await sidecarWith({});
    for (let i = 0; i < 4; i++) await sidecar.bundle.reload();
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    await until(async () => {
      gc();
      await new Promise((r) => setTimeout(r, 50));
      return spillFds(dir).length === 1;
    }, "the replaced bundles' spill files closed");
    expect(spillFds(dir)).toHaveLength(1);
  });
});
