/**
 * `npm run bench`: build time and peak RSS at 10k and 100k synthetic reviews (a full build, then
 * a rebuild after one new review with the previous dist/ and cache), insights time, then search
 * throughput against a bare h3 route in the same run, on loopback, each load bounded in time.
 * Prints a Markdown report and writes it to .bench/report.md. 100,000 reviews is the size the project is built for.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { seededRandom } from "../build/synth/random.ts";
import { MCP_HEADERS, openMcpSession } from "../harness/mcp.ts";
import { addOneReview, changeOneReview, ensureData, ensureDist, WORK } from "./data.ts";
import { cpuMs, ROOT, rssMiB, run, runIn, SERVE, start, stop } from "./processes.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
/** Which parts to run: build, insights, search, mcp, hub (all by default). */
const parts = new Set((process.env.BENCH_PARTS ?? "build,insights,search,mcp,hub").split(","));
const lines: string[] = [];
const say = (line = "") => {
  console.log(line);
  lines.push(line);
};

async function load(url: string, paths: string[]) {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ setupRequest: (req: any) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/** A realistic mix: words drawn from the corpus, random filters, some paging. */
async function searchPaths(dist: string, base: string): Promise<string[]> {
  const { reviews, business } = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8"));
  const random = seededRandom("bench");
  const words: string[] = [];
  for (let i = 0; i < 400; i++) {
    const text: string[] =
      random
        .pick(reviews as { text: string }[])
        .text.toLowerCase()
        .match(/[a-z]{3,}/g) ?? [];
    if (text.length > 1) {
      const at = random.int(0, text.length - 2);
      words.push(random.chance(0.8) ? text[at]! : `${text[at]} ${text[at + 1]}`);
    }
  }
  const dates = (reviews as { date: string }[]).map((r) => r.date);
  const paths: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const p = new URLSearchParams();
    const kind = random.next();
    if (kind < 0.45) p.set("query", random.pick(words));
    if (kind >= 0.3 && kind < 0.55) p.set("mentions_technician", random.pick(business.technicians as { id: string }[]).id);
    if (kind >= 0.5 && kind < 0.7) p.set("mentions_service", random.pick(business.services as { id: string }[]).id);
    if (random.chance(0.25)) p.set("min_rating", String(random.int(2, 5)));
    if (random.chance(0.1)) p.set("rating", String(random.int(1, 5)));
    if (random.chance(0.25)) {
      const [a, b] = [random.pick(dates), random.pick(dates)].sort();
      p.set("since", a!);
      if (random.chance(0.5)) p.set("until", b!);
    }
    if (random.chance(0.3)) p.set("limit", String(random.pick([5, 10, 50, 100])));
    paths.push(`/api/reviews/search?${p}`);
  }
  // Some paging: second pages of a few of these, with the cursor the first page gave.
  for (const path of paths.slice(0, 300)) {
    const body = await (await fetch(base + path)).json();
    if (body.next_cursor) paths.push(`${path}&cursor=${body.next_cursor}`);
  }
  return paths;
}

const ratio = (a: number, b: number) => `${Math.round((a / b) * 100)}%`;

await mkdir(WORK, { recursive: true });
say(`# reviewcast benchmarks`);
say();
say(
  `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model.trim()} · ${Math.round(totalmem() / 2 ** 30)} GiB · loopback, ${CONNECTIONS} connections, ${DURATION} s per load`,
);
say();
if (parts.has("build")) {
  say("## Build (synthetic data)");
  say();
  say("Full: a fresh `DIST_DIR` and an empty cache. Rebuild: the same data with one new review, the");
  say("previous `dist/` and its cache (`BUILD_CACHE_DIR`), as a CI builds after each new review: the");
  say("median of three, each after one more new review (all three in brackets).");
  say();
  say("Each build runs as a CI runs it, `npm run build` in its own process: the first figure is the");
  say("process's wall time (npm, Node's start, the imports and the build), the one in brackets the time");
  say("measured inside the build; the ratio compares walls. The business's own data (`data/`, 328");
  say("reviews) is rebuilt after one review's text changes.");
  say();
  say(
    "| reviews | synth s | full build s | full peak RSS MiB | rebuild after one new review s | rebuild / full (walls) | rebuild peak RSS MiB |",
  );
  say("|---:|---:|---:|---:|---:|---:|---:|");
  /** `npm run build` as a process, with the build's own measure of itself (BENCH_BUILD_REPORT). */
  const npmBuild = async (settings: Record<string, string>) => {
    // The disk settled first: deleting the previous 100,000 pages leaves the file system busy
    // for a while, and the next build's writes would wait for it (docs/benchmarks.md, "The machine").
    execFileSync("sync");
    await new Promise((r) => setTimeout(r, 2_000));
    const report = join(WORK, "build-report.json");
    const started = performance.now();
    await runIn("npm", ["run", "build", "--silent"], { ...settings, BENCH_BUILD_REPORT: report });
    const wallMs = Math.round(performance.now() - started);
    return { ...(JSON.parse(await readFile(report, "utf8")) as { ms: number; max_rss_mib: number }), wallMs };
  };
  const seconds = (ms: number) => (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
  const row = (
    name: string,
    synthS: string,
    full: { wallMs: number; ms: number; max_rss_mib: number },
    rebuilds: { wallMs: number; ms: number; max_rss_mib: number }[],
  ) => {
    // The rebuild varies by a tenth from one run to the next: three of them, and their median.
    const rebuild = [...rebuilds].sort((a, b) => a.wallMs - b.wallMs)[1]!;
    say(
      `| ${name} | ${synthS} | ${seconds(full.wallMs)} (${seconds(full.ms)}) | ${full.max_rss_mib} | ${seconds(rebuild.wallMs)} (${seconds(rebuild.ms)}; walls ${rebuilds.map((r) => seconds(r.wallMs)).join(", ")}) | ${ratio(rebuild.wallMs, full.wallMs)} | ${rebuild.max_rss_mib} |`,
    );
  };
  {
    const root = join(WORK, "business");
    await rm(root, { recursive: true, force: true });
    await cp(join(ROOT, "data"), join(root, "data"), { recursive: true });
    const settings = {
      DATA_DIR: join(root, "data"),
      DIST_DIR: join(root, "dist"),
      BUILD_CACHE_DIR: join(root, "cache"),
      OWNER_REPORT: join(root, "owner.html"),
    };
    const full = await npmBuild(settings);
    const rebuilds = [];
    for (let i = 0; i < 3; i++) {
      await changeOneReview(join(root, "data"), i);
      rebuilds.push(await npmBuild(settings));
    }
    row("328 (data/)", "", full, rebuilds);
  }
  const sizes = [10_000, 100_000];
  for (const n of sizes) {
    const data = join(WORK, `data-${n}`);
    const dist = join(WORK, `dist-${n}`);
    const cache = join(WORK, `cache-${n}`);
    const synthStart = performance.now();
    await run(["build/synth/index.ts", "--reviews", String(n), "--seed", "bench", "--out", data]);
    const synthS = ((performance.now() - synthStart) / 1000).toFixed(1);
    await rm(dist, { recursive: true, force: true });
    await rm(cache, { recursive: true, force: true });
    const settings = { DATA_DIR: data, DIST_DIR: dist, BUILD_CACHE_DIR: cache, OWNER_REPORT: join(WORK, `owner-${n}.html`) };
    const full = await npmBuild(settings);
    const rebuilds = [];
    for (let i = 0; i < 3; i++) {
      await addOneReview(data, n * 10 + i);
      rebuilds.push(await npmBuild(settings));
    }
    row(n.toLocaleString("en-US"), synthS, full, rebuilds);
  }
  say();
}

if (parts.has("insights")) {
  say("## Insights (language analysis of every review)");
  say();
  say("| reviews | aspect mentions | insights s | insights.json MiB | peak RSS MiB |");
  say("|---:|---:|---:|---:|---:|");
  for (const n of [10_000, 100_000]) {
    const m = JSON.parse(await run(["bench/insights-once.ts"], { DATA_DIR: await ensureData(n) }));
    say(
      `| ${m.reviews.toLocaleString("en-US")} | ${m.mentions.toLocaleString("en-US")} | ${(m.ms / 1000).toFixed(1)} | ${(m.bytes / 2 ** 20).toFixed(1)} | ${m.max_rss_mib} |`,
    );
  }
  say();
}

const httpRps = new Map<number, number>();
if (parts.has("search")) {
  say();
  say("## Search against a bare h3 route");
  say();
  const barePort = 3901;
  const bare = await start(["bench/bare-server.ts"], { PORT: String(barePort) });
  await load(`http://127.0.0.1:${barePort}`, ["/bare"]); // warm-up
  const bareResult = await load(`http://127.0.0.1:${barePort}`, ["/bare"]);
  await stop(bare.child);
  say(`Bare h3 route (constant JSON): ${bareResult.rps} req/s, p99 ${bareResult.p99} ms.`);
  say();
  say(
    "| reviews | search req/s | vs bare | p99 ms | non-2xx | errors | peak RSS at start MiB | RSS after load MiB | ready in (process wall) |",
  );
  say("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const n of [10_000, 100_000]) {
    const port = 3902;
    const sidecar = await start(SERVE, {
      PORT: String(port),
      HOST: "127.0.0.1",
      DIST_DIR: await ensureDist(n),
      MCP_SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
      STATE_DIR: join(WORK, "state"),
    });
    const startPeak = await rssMiB(sidecar.child.pid!, "VmHWM");
    const base = `http://127.0.0.1:${port}`;
    const paths = await searchPaths(join(WORK, `dist-${n}`), base);
    await load(base, paths); // warm-up: fills the text cache the way traffic would
    const result = await load(base, paths);
    const rss = await rssMiB(sidecar.child.pid!);
    await stop(sidecar.child);
    const ready = /ready in (\d+) ms/.exec(sidecar.line)?.[1];
    say(
      `| ${n.toLocaleString("en-US")} | ${result.rps} | ${ratio(result.rps, bareResult.rps)} | ${result.p99} | ${result.non2xx} | ${result.errors} | ${startPeak} | ${rss} | ${ready} ms (${sidecar.wallMs} ms) |`,
    );
    httpRps.set(n, result.rps);
  }
}

if (parts.has("mcp")) {
  say();
  say("## MCP: tools/call through the SDK, against the HTTP search");
  say();
  // This machine's throughput drifts by a third from one load to the next: the loads alternate,
  // five rounds each, and the table gives the medians and each round's ratio. search_reviews takes
  // the HTTP search's paths as arguments; get_business takes none and answers the same each time.
  // "CPU ms": the server process's CPU time (user + system) per answer, which other programs on a
  // shared machine slow less than they slow its requests per second.
  say(
    "| reviews | HTTP search req/s (median of 5) | CPU ms | MCP search_reviews req/s (median of 5) | CPU ms | vs HTTP, per round | p99 ms | MCP get_business req/s (median of 5) | CPU ms | p99 ms | non-2xx |",
  );
  say("|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|");
  const port = 3903;
  for (const n of [10_000, 100_000]) {
    const sidecar = await start(["sidecar/main.ts"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      DIST_DIR: await ensureDist(n),
      MCP_SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
    });
    const base = `http://127.0.0.1:${port}`;
    const paths = await searchPaths(join(WORK, `dist-${n}`), base);
    await load(base, paths);
    const headers = { ...MCP_HEADERS, "mcp-protocol-version": "2025-06-18" };
    const session = await openMcpSession(base, "bench");
    const call = (id: number, name: string, args: Record<string, unknown>) =>
      JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    // The same searches as arguments; numbers as numbers, as an MCP client sends them.
    const searches = paths.map((path, i) =>
      call(
        i + 1,
        "search_reviews",
        Object.fromEntries(
          [...new URL(path, base).searchParams].map(([k, v]) => [k, ["rating", "min_rating", "limit"].includes(k) ? Number(v) : v]),
        ),
      ),
    );
    const business = [call(1, "get_business", {})];
    const mcpLoad = async (bodies: string[]) => {
      let i = 0;
      const result = await autocannon({
        url: `${base}/mcp`,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [
          {
            setupRequest: (req: any) => ({
              ...req,
              method: "POST",
              path: "/mcp",
              headers: { ...headers, "mcp-session-id": session },
              body: bodies[i++ % bodies.length],
            }),
          },
        ],
      });
      return { rps: Math.round(result.requests.average), p99: result.latency.p99, non2xx: result.non2xx };
    };
    await mcpLoad(searches);
    await mcpLoad(business);
    /** A load's result and the server's CPU ms per answer during it. */
    const measured = async <R extends { rps: number }>(run: () => Promise<R>) => {
      const cpu = await cpuMs(sidecar.child.pid!);
      const result = await run();
      return { ...result, cpu: ((await cpuMs(sidecar.child.pid!)) - cpu) / (result.rps * DURATION) };
    };
    const rounds: Record<
      "http" | "httpCpu" | "search" | "searchCpu" | "searchP99" | "business" | "businessCpu" | "businessP99" | "non2xx",
      number
    >[] = [];
    for (let round = 0; round < 5; round++) {
      const http = await measured(() => load(base, paths));
      const search = await measured(() => mcpLoad(searches));
      const one = await measured(() => mcpLoad(business));
      rounds.push({
        http: http.rps,
        httpCpu: http.cpu,
        search: search.rps,
        searchCpu: search.cpu,
        searchP99: search.p99,
        business: one.rps,
        businessCpu: one.cpu,
        businessP99: one.p99,
        non2xx: http.non2xx + search.non2xx + one.non2xx,
      });
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[2]!;
    const ms = (values: number[]) => median(values).toFixed(2);
    const cells = [
      median(rounds.map((r) => r.http)),
      ms(rounds.map((r) => r.httpCpu)),
      median(rounds.map((r) => r.search)),
      ms(rounds.map((r) => r.searchCpu)),
      rounds.map((r) => ratio(r.search, r.http)).join(", "),
      median(rounds.map((r) => r.searchP99)),
      median(rounds.map((r) => r.business)),
      ms(rounds.map((r) => r.businessCpu)),
      median(rounds.map((r) => r.businessP99)),
      rounds.reduce((t, r) => t + r.non2xx, 0),
    ];
    say(`| ${n.toLocaleString("en-US")} | ${cells.join(" | ")} |`);
    await stop(sidecar.child);
  }
  // Sessions opened and abandoned: nothing is kept per session, so the heap should level off.
  // Measured from inside, after forced collections (the RSS also holds garbage not yet collected).
  const sessions = JSON.parse(
    (await run(["--expose-gc", "bench/mcp-sessions.ts"], { DIST_DIR: await ensureDist(100_000) })).trim().split("\n").at(-1)!,
  );
  say();
  say(
    `MCP sessions opened (initialised, used once) and abandoned at 100k reviews: ${sessions.sessions.toLocaleString("en-US")} in rounds of 10,000; heap after forced collection, before and after each round: ${sessions.heap_mib.join(", ")} MiB.`,
  );
}
if (parts.has("hub")) {
  say();
  say("## WebSub hub: one change fanned out to 1,000 HTTPS subscribers");
  say();
  const result = JSON.parse((await run(["bench/hub.ts"])).trim().split("\n").at(-1)!);
  say(
    `${result.subscribers} of ${result.asked} subscribers verified, all notified in ${result.seconds} s (publish ping to last notification received); hub RSS ${result.rss_before_mib} MiB before, ${result.rss_after_mib} MiB after.`,
  );
}

await writeFile(join(WORK, "report.md"), lines.join("\n") + "\n");
