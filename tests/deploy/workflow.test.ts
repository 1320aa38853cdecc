/**
 * The deploy workflow (.github/workflows/), read by a YAML parser as GitHub reads it: it parses,
 * every step runs a command or uses an action, and what it runs and keeps is what the project has.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { BuildSettings, parseSettings } from "../../core/settings.ts";

const ROOT = new URL("../../", import.meta.url);
const DIR = new URL(".github/workflows/", ROOT);
const SCRIPTS = Object.keys((JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { scripts: object }).scripts);

type Step = { name?: string; uses?: string; run?: string; with?: Record<string, unknown> };
type Workflow = { on: unknown; jobs: Record<string, { steps: Step[] }> };

const workflows = readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .map((file) => ({ file, document: parseDocument(readFileSync(new URL(file, DIR), "utf8"), { uniqueKeys: true }) }));

describe("the workflows", () => {
  it("exist and parse as YAML with no error or warning (a plain value holding ': ' is a nested mapping)", () => {
    expect(workflows.map((w) => w.file)).toContain("deploy.yml");
    for (const { file, document } of workflows)
      expect([...document.errors, ...document.warnings].map((e) => `${file}: ${e.message}`)).toEqual([]);
  });

  it.each(workflows.map((w) => [w.file, w.document.toJS() as Workflow]))(
    "%s: each step runs a command or uses an action",
    (_, workflow) => {
      expect(workflow.on).toBeDefined();
      const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps) expect(typeof step.run === "string" || typeof step.uses === "string", JSON.stringify(step)).toBe(true);
    },
  );

  it("runs only npm scripts and files the project has, and keeps the owner report where the build writes it", () => {
    const steps = workflows.flatMap((w) => Object.values((w.document.toJS() as Workflow).jobs).flatMap((j) => j.steps));
    const runs = steps.flatMap((s) => (s.run ? [s.run] : []));
    const npmRuns = runs.flatMap((r) => [...r.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => m[1]!));
    expect(npmRuns.length).toBeGreaterThan(0);
    for (const script of npmRuns) expect(SCRIPTS, script).toContain(script);
    for (const file of runs.flatMap((r) => [...r.matchAll(/(?:^|\s)(\.ci\/[\w./-]+)/g)].map((m) => m[1]!)))
      expect(existsSync(new URL(file, ROOT)), file).toBe(true);
    const kept = steps.find((s) => s.uses?.startsWith("actions/upload-artifact"));
    expect(kept?.with?.path).toBe(parseSettings(BuildSettings, {}).OWNER_REPORT);
  });
});
