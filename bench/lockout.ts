/**
 * `tsx bench/lockout.ts`: whether an attacker holding the server's connections locks out a
 * newcomer, measured from outside against a real sidecar process (as `npm run serve` runs it) on
 * loopback. Two cases (issue 55, item 5), each on a fresh sidecar:
 * - pipelines: 1,000 sockets from 127.0.0.2–127.0.0.5 each pipeline requests and read no answer,
 *   each reopened as soon as the server cuts it; meanwhile a newcomer from 127.0.0.6 sends 4 searches;
 * - trickle: with MAX_CONNECTIONS=50, 60 POSTs from 127.0.0.2–127.0.0.5 trickle their bodies a
 *   byte a second, each reopened when cut; meanwhile the newcomer sends 5 ordinary GETs.
 * Reports how many of the newcomer's requests were answered, and the sidecar's RSS at rest and at
 * its peak under the attack. LOCKOUT_DIST names a built dist/ (else 100,000 synthetic reviews are
 * made and built in .bench/lockout; LOCKOUT_REVIEWS sets how many).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { nodeScript } from "../harness/scripts.ts";
import { trickled, unread } from "./abuse.ts";
import { exists } from "./data.ts";
import { ROOT, rssMiB, run } from "./processes.ts";

const WORK = join(ROOT, ".bench/lockout");
const REVIEWS = Number(process.env.LOCKOUT_REVIEWS ?? 100_000);
const ATTACKERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];
const NEWCOMER = "127.0.0.6";
const PIPELINED = "GET /api/reviews/since/2000-01-01?limit=1000 HTTP/1.1\r\nHost: localhost:3000\r\n\r\n".repeat(60);

const env = { ...process.env, CI: "true", BASE_URL: "http://localhost:3000" };

async function main(): Promise<void> {
  const dist = process.env.LOCKOUT_DIST ?? (await built());
  const lines = [
    `# Lockouts (${new Date().toISOString().slice(0, 10)})`,
    "",
    `Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model.trim()} · ${Math.round(totalmem() / 2 ** 30)} GiB · loopback`,
    "",
    "| case | newcomer answered | attacker connections cut | RSS at rest | peak over rest |",
    "|---|---|---|---|---|",
  ];
  lines.push(
    await measure("1,000 unread pipelines from 4 addresses", dist, {}, 4, (port, end) =>
      Array.from({ length: 1_000 }, (_, i) => again(end, () => unread(port, end, PIPELINED, ATTACKERS[i % 4]))),
    ),
  );
  lines.push(
    await measure("60 trickled POSTs, MAX_CONNECTIONS=50", dist, { MAX_CONNECTIONS: "50" }, 5, (port, end) =>
      Array.from({ length: 60 }, (_, i) => again(end, () => trickled(port, end, ATTACKERS[i % 4]))),
    ),
  );
  console.log(lines.join("\n"));
  await mkdir(WORK, { recursive: true });
  await writeFile(join(WORK, "report.md"), `${lines.join("\n")}\n`);
}

/** 100,000 synthetic reviews (LOCKOUT_REVIEWS), built once into .bench/lockout. */
async function built(): Promise<string> {
  const data = join(WORK, `data-${REVIEWS}`);
  const dist = join(WORK, `dist-${REVIEWS}`);
  if (!(await exists(join(dist, "manifest.json")))) {
    await run(["build/synth/index.ts", "--reviews", String(REVIEWS), "--seed", "lockout", "--out", data]);
    await run(["build/index.ts"], { DATA_DIR: data, DIST_DIR: dist, BUILD_CACHE_DIR: "off", BASE_URL: env.BASE_URL });
  }
  return dist;
}

/** Run `job` again each time the server ends it, until `end`; resolves with how many times it did. */
async function again(end: number, job: () => Promise<unknown>): Promise<number> {
  let cut = 0;
  while (Date.now() < end) if ((await job(), Date.now() < end)) cut++;
  return cut;
}

/** One case on a fresh sidecar: the attack for 30 s, the newcomer's requests from its 10th second. */
async function measure(
  name: string,
  dist: string,
  settings: Record<string, string>,
  requests: number,
  attack: (port: number, end: number) => Promise<number>[],
): Promise<string> {
  const port = 3950;
  const serve = nodeScript("serve");
  const sidecar: ChildProcess = spawn(process.execPath, serve.args, {
    cwd: ROOT,
    env: { ...env, ...serve.env, PORT: String(port), HOST: "127.0.0.1", DIST_DIR: dist, DIST_WATCH_SECONDS: "0", ...settings },
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      sidecar.stdout!.on("data", (d) => String(d).includes("serving") && resolve());
      sidecar.stderr!.on("data", (d) => process.stderr.write(d));
      sidecar.once("exit", (code) => reject(new Error(`the sidecar exited ${code}`)));
    });
    for (let i = 0; i < 5; i++) await ask(port, "/api/reviews/search?query=ants&limit=10");
    await new Promise((r) => setTimeout(r, 2_000));
    const rest = await rssMiB(sidecar.pid!, "VmRSS");
    await writeFile(`/proc/${sidecar.pid}/clear_refs`, "5");
    const end = Date.now() + 30_000;
    const attackers = attack(port, end);
    await new Promise((r) => setTimeout(r, 10_000));
    const answers: (number | string)[] = [];
    const waits: number[] = [];
    for (let i = 0; i < requests; i++) {
      const asked = performance.now();
      answers.push(await ask(port, "/api/reviews/search?query=ants&limit=10"));
      waits.push(Math.round(performance.now() - asked));
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const cut = (await Promise.all(attackers)).reduce((a, b) => a + b, 0);
    const peak = await rssMiB(sidecar.pid!, "VmHWM");
    const answered = answers.filter((a) => a === 200).length;
    const said = answers.map((a, i) => `${a} in ${waits[i]} ms`).join(", ");
    return `| ${name} | ${answered} of ${requests} (${said}) | ${cut} | ${rest} MiB | +${peak - rest} MiB |`;
  } finally {
    sidecar.kill("SIGTERM");
    await new Promise((r) => sidecar.once("exit", r));
  }
}

/** One GET from the newcomer's address on a new connection: its status, "reset" or "no answer in 10 s". */
function ask(port: number, path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, localAddress: NEWCOMER, agent: false, headers: { host: "localhost:3000" } });
    const timer = setTimeout(() => {
      req.destroy();
      resolve("no answer in 10 s");
    }, 10_000);
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => {
        clearTimeout(timer);
        resolve(res.statusCode ?? 0);
      });
    });
    req.on("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(e.code === "ECONNRESET" ? "reset" : (e.code ?? e.message));
    });
    req.end();
  });
}

await main();
