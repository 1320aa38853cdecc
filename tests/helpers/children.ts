/**
 * Every process a test starts, ended when the test ends, however it ends: passed, failed or timed
 * out. A timed-out test's own `finally` never runs (vitest leaves its promise pending and goes
 * on), so the processes it started are ended here, from tests/helpers/setup.ts's hooks: those
 * started inside a test after that test, those started in a file's `beforeAll` after that file,
 * and all of them when the worker exits.
 *
 * Each is the leader of a process group of its own, and the whole group is ended: the tsx CLI,
 * for one, runs the script in a child process that a kill of the CLI alone would leave running.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

type Scope = "test" | "file";

const running = new Map<ChildProcess, Scope>();
let scope: Scope = "file";

/** tests/helpers/setup.ts says whether what starts now belongs to a test or to its file. */
export function startingIn(now: Scope): void {
  scope = now;
}

/** `spawn`, with the child ended at the end of the test (or file) that started it. */
export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  running.set(child, scope);
  child.once("exit", () => running.delete(child));
  return child;
}

/** SIGKILL to the process group of each child of `of` (or of every scope) still running. */
export function endChildren(of?: Scope): void {
  for (const [child, s] of running) {
    if (of && s !== of) continue;
    running.delete(child);
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The group has already gone.
    }
  }
}

process.once("exit", () => endChildren());
