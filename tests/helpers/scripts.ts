/**
 * package.json's scripts as commands to spawn with this node: `npm run serve` is
 * `VAR=value ... node ARGS`, and tests and benchmarks run the same, without npm around it.
 */
import { readFileSync } from "node:fs";

const scripts = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { scripts: Record<string, string> }).scripts;

/** The environment a script sets and node's arguments; throws when the script is not `[VAR=value ...] node ...`. */
export function nodeScript(name: string): { env: Record<string, string>; args: string[] } {
  const words = scripts[name]!.split(" ");
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? "")) {
    const [key, ...value] = words.shift()!.split("=");
    env[key!] = value.join("=");
  }
  if (words.shift() !== "node") throw new Error(`package.json's ${name} script is not "[VAR=value ...] node ...": ${scripts[name]}`);
  return { env, args: words };
}
