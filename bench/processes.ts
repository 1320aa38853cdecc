/**
 * The processes the benchmarks run: scripts under tsx, the sidecar as `npm run serve` runs it, and
 * their memory and CPU time from /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { nodeScript } from "../harness/scripts.ts";

export const ROOT = new URL("../", import.meta.url).pathname;
const TSX = join(ROOT, "node_modules/.bin/tsx");
const env = { ...process.env, CI: "true" };

/** `command args` in the project; resolves with its stdout, rejects on a failure. */
export function runIn(command: string, args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited ${code}`))));
  });
}

/** A TypeScript script under tsx. */
export const run = (args: string[], extraEnv: Record<string, string> = {}) => runIn(TSX, args, extraEnv);

/** `npm run serve`'s command (package.json's script, with this node): the sidecar as users run it. */
const SERVE_SCRIPT = nodeScript("serve");
export const SERVE = SERVE_SCRIPT.args;

/** Start a TypeScript entry under tsx, or the sidecar as `npm run serve` runs it when `args` is SERVE. */
export async function start(
  args: string[],
  extraEnv: Record<string, string>,
): Promise<{ child: ChildProcess; wallMs: number; line: string }> {
  const started = performance.now();
  // node itself, not the tsx wrapper, so that the pid is the server's own (for its RSS).
  const child = spawn(process.execPath, args === SERVE ? SERVE : ["--import", "tsx", ...args], {
    cwd: ROOT,
    env: { ...env, ...(args === SERVE ? SERVE_SCRIPT.env : {}), ...extraEnv },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (d) => resolve(String(d)));
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}`)));
  });
  return { child, wallMs: Math.round(performance.now() - started), line: line.trim() };
}

export async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

/** A process's resident memory (VmRSS) or its peak (VmHWM), in MiB, from /proc. */
export async function rssMiB(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024);
}

/** A process's CPU time so far (user + system), in ms, from /proc (clock ticks of 10 ms). */
export async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
