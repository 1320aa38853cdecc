/**
 * No module imports itself back through others, type-only imports included: an import cycle makes
 * load order matter and the layers impossible to tell apart. The graph is read from the sources'
 * import and export statements (relative specifiers only; packages cannot import us back).
 * dependency-cruiser, the usual tool, needs Node 22 in its current major; the graph here is a
 * regular expression and a depth-first walk.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** Every cycle, each as the list of files from one of its modules back to it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(ROOT, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("imports", () => {
  const files = ["core", "views", "insights", "build", "import", "site", "sidecar", "eval", "scripts", "bench", "harness"].flatMap((d) =>
    sources(join(ROOT, d)),
  );
  const graph = new Map(
    files.map((file) => {
      const text = readFileSync(file, "utf8");
      const targets = [...text.matchAll(SPECIFIER)].map((m) => resolve(dirname(file), m[1] ?? m[2]!));
      return [file, targets.filter((t) => t.endsWith(".ts"))];
    }),
  );

  it("are read from every source file", () => {
    expect(files.length).toBeGreaterThan(60);
    // The reader sees what it must: app.ts imports its routes.
    expect(graph.get(join(ROOT, "sidecar/app.ts"))).toContain(join(ROOT, "sidecar/mcp/route.ts"));
  });

  it("have no cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  // The layers: core/ is shared and depends on none of them; views/ (the pages' HTML, with no
  // Eleventy in it) builds on core/ only; insights/ (what customers say, from the reviews) on
  // both; the pages (site/), the build and the sidecar use them, and read one another's output
  // through core/, never one another's code. The insights are the build's and eval's: the sidecar
  // and the pages read insights.json.
  it.each([
    ["core", ["views", "insights", "build", "import", "site", "sidecar", "eval", "scripts", "bench"]],
    ["views", ["insights", "build", "import", "site", "sidecar", "eval", "scripts", "bench"]],
    ["insights", ["build", "import", "site", "sidecar", "eval", "scripts", "bench"]],
    ["site", ["insights", "build", "import", "sidecar", "eval"]],
    ["sidecar", ["insights", "build", "import", "site", "eval"]],
    ["build", ["sidecar", "import", "site", "eval"]],
    ["import", ["build", "site", "sidecar", "eval", "scripts", "bench"]],
  ] as const)("keep %s from importing %j", (layer, forbidden) => {
    const crossing = [...graph]
      .filter(([file]) => relative(ROOT, file).startsWith(`${layer}/`))
      .flatMap(([file, targets]) =>
        targets
          .filter((t) => forbidden.some((f) => relative(ROOT, t).startsWith(`${f}/`)))
          .map((t) => `${relative(ROOT, file)} -> ${relative(ROOT, t)}`),
      );
    expect(crossing).toEqual([]);
  });

  // What tests and benchmarks both run is in harness/: nothing outside tests/ imports a test's code,
  // and the product imports neither.
  it.each(
    [
      ["core", "views", "insights", "build", "import", "site", "sidecar", "scripts", "eval", "bench", "harness"].map((l) => [l, ["tests"]]),
      ["core", "views", "insights", "build", "import", "site", "sidecar", "scripts"].map((l) => [l, ["harness", "bench"]]),
    ].flat() as [string, string[]][],
  )("keep %s from importing %j", (layer, forbidden) => {
    const crossing = [...graph]
      .filter(([file]) => relative(ROOT, file).startsWith(`${layer}/`))
      .flatMap(([file, targets]) => targets.filter((t) => forbidden.some((f) => relative(ROOT, t).startsWith(`${f}/`))));
    expect(crossing).toEqual([]);
  });

  it("keep Eleventy out of views/, which the sidecar imports too", () => {
    const views = files.filter((f) => relative(ROOT, f).startsWith("views/"));
    expect(views.length).toBeGreaterThan(3);
    expect(views.filter((f) => /from\s+["']@11ty\//.test(readFileSync(f, "utf8"))).map((f) => relative(ROOT, f))).toEqual([]);
  });

  it("keep every product file under 300 lines (one concern a file) and every line within 140 characters", () => {
    const product = files.filter((f) => /^(core|views|insights|build|import|site|sidecar|scripts)\//.test(relative(ROOT, f)));
    expect(product.length).toBeGreaterThan(100);
    const lines = product.map((f) => [relative(ROOT, f), readFileSync(f, "utf8").split("\n")] as const);
    expect(lines.filter(([, all]) => all.length > 300).map(([file, all]) => `${file}: ${all.length} lines`)).toEqual([]);
    const wide = lines.flatMap(([file, all]) => all.flatMap((line, i) => (line.length > 140 ? [`${file}:${i + 1}: ${line.length}`] : [])));
    expect(wide).toEqual([]);
  });

  it("finds a cycle when there is one (the check itself)", () => {
    expect(
      cycles(
        new Map([
          ["/a.ts", ["/b.ts"]],
          ["/b.ts", ["/c.ts"]],
          ["/c.ts", ["/a.ts"]],
        ]),
      ),
    ).toHaveLength(1);
  });
});
