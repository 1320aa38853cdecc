/**
 * `npm run eval:polarity`: accuracy and macro-F1 on every labelled set the project has, its training and
 * validation parts apart, of the linear model, the encoder alone and the two combined as the
 * insights use them (insights/sentiment/encoder/judge.ts), side by side; the encoder's columns on
 * the validation parts and the held-out sets only (it was trained on the training parts). `npm run eval:polarity -- --errors NAME` also lists the validation errors of
 * one set. The held-out sets (eval/sets/held-out/) are reported apart. `npx tsx eval/score.ts FILE.jsonl
 * ...` scores any labelled file.
 */
import type { Polarity } from "../insights/sentiment/engine.ts";
import { availableParallelism } from "node:os";
import { classifyAll, encoder, judgeTargets } from "../insights/sentiment/encoder/judge.ts";
import { locate } from "../insights/sentiment/encoder/input.ts";
import { CLASSES } from "../insights/sentiment/model.ts";
import type { Judged } from "./audit.ts";
import { heldOutSets, labelledSets, readLabelled, type Labelled } from "./sets.ts";

export type { Labelled };
export { readLabelled };

export interface Score {
  targets: number;
  accuracy: number;
  macro_f1: number;
  confusion: Record<Polarity, Record<Polarity, number>>;
  errors: (Labelled & { got: Polarity })[];
}

/** Scores predictions against the gold labels. */
export function scoreOf(targets: readonly Labelled[], predicted: readonly Polarity[]): Score {
  const confusion = Object.fromEntries(CLASSES.map((p) => [p, Object.fromEntries(CLASSES.map((q) => [q, 0]))])) as Score["confusion"];
  const errors: Score["errors"] = [];
  targets.forEach((t, i) => {
    confusion[t.polarity][predicted[i]!]++;
    if (predicted[i] !== t.polarity) errors.push({ ...t, got: predicted[i]! });
  });
  const correct = CLASSES.reduce((n, p) => n + confusion[p][p], 0);
  const f1 = CLASSES.map((p) => {
    const tp = confusion[p][p];
    const predictedP = CLASSES.reduce((n, q) => n + confusion[q][p], 0);
    const actual = CLASSES.reduce((n, q) => n + confusion[p][q], 0);
    return tp === 0 ? 0 : (2 * tp) / (predictedP + actual);
  });
  return {
    targets: targets.length,
    accuracy: correct / targets.length,
    macro_f1: f1.reduce((a, b) => a + b, 0) / f1.length,
    confusion,
    errors,
  };
}

/**
 * The model's judgements of labelled targets, each with the other targets of its sentence and its
 * review's stars where known: what `npm run sentiment` answers (insights/sentiment/cli.ts).
 */
export function modelScore(targets: readonly Labelled[]): Score {
  return scoreOf(
    targets,
    classifyAll(targets.map(targetOf)).map((j) => j.polarity),
  );
}

/** The encoder's judgements alone. */
export async function encoderScore(targets: readonly Labelled[]): Promise<Score> {
  const e = await encoder(availableParallelism());
  return scoreOf(
    targets,
    (await e.judge(targets.map(targetOf))).map((j) => j.polarity),
  );
}

/** The insights' judgements: the linear model and the encoder combined; what `npm run sentiment` answers. */
export async function insightsScore(targets: readonly Labelled[]): Promise<Score> {
  return scoreOf(targets, await judgeTargets(targets.map(targetOf), "combined", availableParallelism()));
}

export const targetOf = (t: Labelled) => ({ text: t.text, ...locate(t)!, aspect: t.aspect, rating: t.rating });

const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(6);

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = process.argv.slice(2).filter((a) => a.endsWith(".jsonl"));
  const errorsOf = process.argv.includes("--errors") ? process.argv[process.argv.indexOf("--errors") + 1] : undefined;
  if (files.length) {
    for (const file of files) {
      const s = modelScore(readLabelled(file));
      console.log(
        `${file}: ${s.targets} targets, accuracy ${pct(s.accuracy)}, macro-F1 ${pct(s.macro_f1)}  gold \\ got ${JSON.stringify(s.confusion)}`,
      );
    }
  } else {
    console.log("                                       linear           encoder            insights (combined)");
    console.log("set             part         targets   acc  macro-F1     acc  macro-F1     acc  macro-F1  F1 pos   neg   neu");
    const row = async (name: string, targets: readonly Labelled[], all: boolean) => {
      const m = modelScore(targets);
      const [e, c] = all ? [await encoderScore(targets), await insightsScore(targets)] : [];
      const cells =
        e && c ? `${pct(e.accuracy)}  ${pct(e.macro_f1)}   ${pct(c.accuracy)}  ${pct(c.macro_f1)}  ${f1Cells(c)}` : "     —       —";
      console.log(`${name} ${String(targets.length).padStart(7)}  ${pct(m.accuracy)}  ${pct(m.macro_f1)}   ${cells}`);
      return c;
    };
    for (const set of labelledSets()) {
      for (const [part, targets] of [
        ["train", set.train],
        ["validation", set.validation],
      ] as const) {
        if (!targets.length) continue;
        const c = await row(`${set.name.padEnd(15)} ${part.padEnd(12)}`, targets, part === "validation");
        if (c && errorsOf === set.name) {
          for (const x of c.errors) console.log(`    ${x.polarity} → ${x.got} [${x.aspect}] ${x.text}`);
        }
      }
    }
    // Written apart and never decided on (eval/sets/held-out/README.md): reported, nothing more.
    console.log(`\nheld out (never trained on or chosen by):`);
    for (const set of heldOutSets()) await row(set.name.padEnd(28), set.targets, true);
    // The insights as built from this business's reviews, against the measuring audit round's judge.
    console.log(`\nthe audit of insights.json (docs/audit.md), on a build of data/:`);
    console.log(await lastAudit());
  }
}

/** Each polarity's F1, as the table's cells. */
function f1Cells(s: Score): string {
  return CLASSES.map((p) => pct(f1Of(s, p)).trim().padStart(5)).join(" ");
}

/** F1 of one polarity, from a score's confusion matrix. */
export function f1Of(s: Score, p: Polarity): number {
  const tp = s.confusion[p][p];
  const predicted = CLASSES.reduce((n, q) => n + s.confusion[q][p], 0);
  const actual = CLASSES.reduce((n, q) => n + s.confusion[p][q], 0);
  return tp === 0 ? 0 : (2 * tp) / (predicted + actual);
}

/** The last audit round scored on a fresh build of data/: overall, by star band, by polarity, and its recall check. */
async function lastAudit(): Promise<string> {
  const { mkdtemp, rm } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { build } = await import("../build/build.ts");
  const { BuildSettings, parseSettings } = await import("../core/settings.ts");
  const audit = await import("./audit.ts");
  const dir = await mkdtemp(join(tmpdir(), "reviewcast-eval-"));
  try {
    const dist = join(dir, "dist");
    await build(
      parseSettings(BuildSettings, {
        DATA_DIR: new URL("../data/", import.meta.url).pathname,
        DIST_DIR: dist,
        BUILD_CACHE_DIR: "off",
        OWNER_REPORT: "off",
      }),
    );
    const round = audit.MEASURED;
    const here = (path: string) => new URL(`./audit/${round}/${path}`, import.meta.url);
    const s = audit.scoreAudit(
      audit.draw(dist, audit.ROUNDS[round]!, audit.drawnBefore(round), audit.isStratified(round)),
      audit.readJsonl(here("judged.jsonl")),
    );
    const lines = [audit.auditReport(round, s), audit.recallLine(audit.scoreRecall(dist, audit.readJsonl(here("recall-judged.jsonl"))))];
    for (const r of audit.REREAD) {
      const drawn = audit.draw(dist, audit.ROUNDS[r]!, audit.drawnBefore(r), audit.isStratified(r));
      const judged = audit.readJsonl<Judged>(new URL(`./audit/${r}/judged.jsonl`, import.meta.url));
      lines.push(
        `${r} (any mention, earlier rounds' too, a judge who read none of them):`,
        audit.auditReport(r, audit.scoreAudit(drawn, judged)),
      );
    }
    for (const r of audit.HELD_OUT_RECALL) {
      const fresh = audit.scoreRecall(dist, audit.readJsonl(new URL(`./audit/${r}/recall-judged.jsonl`, import.meta.url)));
      lines.push(`${r}'s recall check, on reviews no check had read (its misses are not read):`, audit.recallLine(fresh));
    }
    return lines.join("\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
