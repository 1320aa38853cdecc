/**
 * `npm start`: package.json's `build` script, then its `serve` script, each run with this node
 * as npm would run it (`[VAR=value ...] node ARGS`), but without an npm around each. Every npm
 * started reads the project's .npmrc and, from npm 11 on, warns about its
 * `onnxruntime-node-install` line (which older npm needs to skip onnxruntime-node's install
 * step); with one npm, `npm start` warns once, not once per nested `npm run`.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { scripts } = JSON.parse(readFileSync(`${root}package.json`, "utf8"));

/** A script `[VAR=value ...] node ARGS` as the variables it sets and node's arguments. */
function nodeCommand(name) {
  const words = scripts[name].split(" ");
  const env = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? "")) {
    const [key, ...value] = words.shift().split("=");
    env[key] = value.join("=");
  }
  if (words.shift() !== "node") throw new Error(`package.json's ${name} script is not "[VAR=value ...] node ...": ${scripts[name]}`);
  return { env, args: words };
}

/** Run a script to its end; a signal this process gets is passed on to it (as npm does), and its exit is this one's. */
function run(name) {
  const { env, args } = nodeCommand(name);
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: "inherit",
  });
  const pass = (signal) => child.kill(signal);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, pass);
  return new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) process.off(s, pass);
      resolve({ code, signal });
    }),
  );
}

const built = await run("build");
if (built.code !== 0) process.exit(built.code ?? 1);
const served = await run("serve");
process.exitCode = served.code ?? (served.signal ? 1 : 0);
