/** A real sidecar process on a free loopback port, as `npm run serve` or the bundled file runs it. */
import { type ChildProcess } from "node:child_process";
import { spawnTracked } from "./children.ts";
import { readFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { createServer } from "node:net";
import { userEnv } from "./run.ts";
import { until } from "../../harness/until.ts";
import { nodeScript } from "../../harness/scripts.ts";

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

export interface Running {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  stop: () => Promise<void>;
}

/** Start `command args` with the env, and resolve once it prints that it is serving. */
export async function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; bareEnv?: boolean } = {},
): Promise<Running> {
  const fullEnv = options.bareEnv ? { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env } : userEnv(env);
  const child = spawnTracked(command, args, {
    cwd: options.cwd ?? new URL("../../", import.meta.url).pathname,
    env: fullEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  let out = "";
  child.stderr!.on("data", (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /serving .* on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`exited ${code} before serving: ${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    stdout: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * A process's live memory after a full collection, in bytes: one started with
 * `--import ./tests/helpers/heap-probe.mjs`, which answers SIGUSR2 on its stdout.
 */
export async function probe(server: Running): Promise<{ heap_used: number; external: number; rss: number; heap_before_gc: number }> {
  const before = server.stdout().split("heap-probe ").length;
  server.child.kill("SIGUSR2");
  await until(() => server.stdout().split("heap-probe ").length > before, "the heap probe's line");
  return JSON.parse(server.stdout().split("heap-probe ").at(-1)!.split("\n")[0]!);
}

/**
 * The sidecar as `npm run serve` runs it (its node flags and glibc settings), its TypeScript
 * through tsx's hooks rather than compiled, with the heap probe: Node itself, not the tsx CLI, so
 * that the memory read from /proc is the serving process's own.
 */
export function startServing(env: Record<string, string>): Promise<Running> {
  const serve = nodeScript("serve");
  const flags = serve.args.filter((a) => a.startsWith("--"));
  return startProcess(process.execPath, [...flags, "--import", "./tests/helpers/heap-probe.mjs", "--import", "tsx", "sidecar/main.ts"], {
    ...serve.env,
    ...env,
  });
}

/** A process's resident memory now and at its peak, in MiB. */
export async function residentMiB(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kB = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  return { rss: kB("VmRSS"), peak: kB("VmHWM") };
}

/** What the serving process holds after a full collection (heap and buffers), in MiB. */
export async function live(server: Running): Promise<number> {
  const { heap_used, external } = await probe(server);
  return (heap_used + external) / 1024 / 1024;
}

export function openSocket(url: string): Promise<Socket> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** `count` connections that each send `requests` and never read an answer. */
export async function unreading(url: string, count: number, requests: string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = await openSocket(url);
    socket.on("error", () => {});
    socket.pause();
    socket.write(requests);
    sockets.push(socket);
  }
  return sockets;
}

/** Connections to the server's port it still holds open, as the kernel lists them. */
export async function established(server: Running): Promise<number> {
  const port = Number(new URL(server.url).port);
  let n = 0;
  for (const line of (await readFile("/proc/net/tcp", "utf8")).split("\n").slice(1)) {
    const [, local, , state] = line.trim().split(/\s+/);
    if (state === "01" && local && parseInt(local.split(":")[1]!, 16) === port) n++;
  }
  return n;
}
