/**
 * The README's `curl` examples, run against a build of data/: each answers as the README says,
 * and an answer the README shows (`# {...}` under the command) is the one the service gives.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

interface Example {
  line: number;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What the README shows under the command: an answer's JSON (with `...` elisions) or a status line. */
  shown?: string;
}

const README = await readFile(new URL("../../README.md", import.meta.url), "utf8");

/** Words of a shell command line, with its quotes removed. */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

function parse(command: string, line: number, shown?: string): Example {
  const args = words(command).slice(1);
  const headers: Record<string, string> = {};
  const data: string[] = [];
  let url = "";
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-H") {
      const [name, ...value] = args[++i]!.split(":");
      headers[name!.toLowerCase()] = value.join(":").trim();
    } else if (args[i] === "-d") data.push(args[++i]!);
    else if (!args[i]!.startsWith("-")) url = args[i]!;
  }
  expect(url.startsWith(BASE_URL), `README line ${line}: ${url}`).toBe(true);
  const body = data.length ? data.join("&") : undefined;
  if (body && !headers["content-type"]) headers["content-type"] = "application/x-www-form-urlencoded";
  return { line, method: body ? "POST" : "GET", path: url.slice(BASE_URL.length), headers, body, shown };
}

/** Every curl command in the README: in shell blocks (joined across `\` lines) and inline. */
function examples(): Example[] {
  const lines = README.split("\n");
  const found: Example[] = [];
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.startsWith("```")) inBlock = text === "```sh";
    else if (inBlock && text.startsWith("curl ")) {
      let command = text;
      const at = i;
      while (command.endsWith("\\")) command = command.slice(0, -1) + " " + lines[++i]!.trim();
      const next = lines[i + 1] ?? "";
      command = command.replace(/\s+#.*$/, "");
      found.push(parse(command, at + 1, /^# (\{|HTTP\/)/.test(next) ? next.slice(2) : undefined));
    } else if (!inBlock) {
      for (const m of text.matchAll(/`(curl [^`]+)`/g)) found.push(parse(m[1]!, i + 1));
    }
  }
  return found;
}

/** The README's shown answer as a pattern: `...` elides members and items, `[...]` is any list. */
function pattern(shown: string): unknown {
  const json = shown
    .replace(/\[\.\.\.\]/g, '"<any list>"')
    .replace(/,\.\.\./g, "")
    .replace(/\.\.\.,?/g, "");
  return JSON.parse(json);
}

function expectShaped(actual: unknown, shown: unknown, where: string): void {
  if (shown === "<any list>") return void expect(Array.isArray(actual), where).toBe(true);
  if (Array.isArray(shown)) {
    expect(Array.isArray(actual), where).toBe(true);
    const list = actual as unknown[];
    if (shown.length === 0) expect(list, where).toEqual([]);
    expect(list.length, where).toBeGreaterThanOrEqual(shown.length);
    shown.forEach((item, i) => expectShaped(list[i], item, `${where}[${i}]`));
  } else if (shown && typeof shown === "object") {
    expect(actual, where).toBeTypeOf("object");
    for (const [key, value] of Object.entries(shown)) expectShaped((actual as Record<string, unknown>)[key], value, `${where}.${key}`);
  } else expect(actual, where).toEqual(shown);
}

let sidecar: Sidecar;
beforeAll(async () => {
  sidecar = await startSidecar(await builtDist());
});
afterAll(() => sidecar.close());

describe("the README's curl examples", () => {
  const all = examples();

  it("are found: the routes, the since answer, MCP and the hub", () => {
    expect(all.length).toBeGreaterThanOrEqual(12);
    expect(all.filter((e) => e.shown).length).toBeGreaterThanOrEqual(2);
  });

  it("each answers as the README says, showing the answer the service gives", async () => {
    let session = "";
    let checked = 0;
    for (const example of all) {
      const where = `README line ${example.line}: ${example.method} ${example.path}`;
      // The hub's example subscribes a callback the reader fills in: it is never dialled here.
      if (example.body?.includes("YOUR-SUBSCRIBER")) continue;
      const headers = { ...example.headers };
      const fetch = (h: Record<string, string>) =>
        sidecar.targets[0]!.fetch(example.path, { method: example.method, headers: h, body: example.body });
      // The README's placeholders: the session initialize returned, the ETag the route sends.
      if (headers["mcp-session-id"]) headers["mcp-session-id"] = session;
      const conditional = headers["if-none-match"] !== undefined;
      if (conditional) headers["if-none-match"] = (await fetch({})).headers.get("etag")!;
      const res = await fetch(headers);
      const text = await res.text();
      session = res.headers.get("mcp-session-id") ?? session;
      // "304 when unchanged".
      expect(res.status, `${where}: ${text.slice(0, 300)}`).toBe(conditional ? 304 : 200);
      if (example.path === "/mcp") expect(text, where).not.toContain('"isError":true');
      if (example.shown?.startsWith("{")) expectShaped(JSON.parse(text), pattern(example.shown), where);
      checked++;
    }
    expect(checked).toBe(all.length - 1);
  });
});
