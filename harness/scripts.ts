/**
 * package.json's scripts as commands to spawn with this node: `npm run serve` is
 * `VAR=value ... node ARGS`, and tests and benchmarks run the same, without npm around it.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const scripts = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { scripts: Record<string, string> })
  .scripts;

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

/**
 * The folder the npm scripts last ran compiled from this checkout (scripts/run.mjs), with its
 * build/compiled.js. Copies of the project made by other tests compile into the same place under
 * their own paths: a folder is this checkout's when the Eleventy it names is under it.
 */
export async function compiledFolder(): Promise<{ dir: string; compiled: typeof import("../build/compiled.ts") }> {
  const cache = new URL("../node_modules/.cache/reviewcast/", import.meta.url).pathname;
  const found = [];
  for (const name of readdirSync(cache).filter((f) => f.startsWith("code-") && existsSync(join(cache, f, "build/compiled.js")))) {
    const dir = join(cache, name);
    const compiled = (await import(join(dir, "build/compiled.js"))) as typeof import("../build/compiled.ts");
    // Folders compiled before Eleventy was bundled have no eleventyEntry.
    if (compiled.eleventyEntry?.().startsWith(pathToFileURL(cache).href)) found.push({ dir, compiled, at: statSync(dir).mtimeMs });
  }
  const newest = found.sort((a, b) => b.at - a.at)[0];
  if (!newest) throw new Error(`no compiled folder of this checkout in ${cache}`);
  return newest;
}
