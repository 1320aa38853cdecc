/**
 * `npm run --silent sentiment -- FILE.jsonl`: for each line {"id","text","aspect","from","to"} (and
 * optionally "rating", the review's stars: evidence about its clauses),
 * print {"id","aspect","polarity"}: the judgement of that target in that text, as the insights
 * make it (the linear model and the encoder combined, encoder/judge.ts), or with `--model linear`
 * by the linear model alone (model.ts). The targets of one text are each judged knowing the others.
 * Lines that cannot be read are reported on stderr with their line number; the others are still
 * judged, in input order, and the exit code is 1 when any line was refused.
 */
import { createReadStream } from "node:fs";
import { availableParallelism } from "node:os";
import { createInterface } from "node:readline";
import { z } from "zod";
import { judgeTargets } from "./encoder/judge.ts";
import { locate } from "./encoder/input.ts";

const Target = z
  .object({
    id: z.union([z.string(), z.number()]),
    text: z.string(),
    aspect: z.string().min(1),
    from: z.number().int().nonnegative().optional(),
    to: z.number().int().nonnegative().optional(),
    rating: z.int().min(1).max(5).optional(),
  })
  .refine((t) => (t.from === undefined) === (t.to === undefined), { message: "give both from and to, or neither", path: ["to"] })
  .refine((t) => t.from === undefined || (t.from < t.to! && t.to! <= t.text.length), {
    message: "from/to must be a non-empty range inside text",
    path: ["from"],
  });

async function main() {
  const args = process.argv.slice(2);
  const flag = args.indexOf("--model");
  const which = flag >= 0 ? args.splice(flag, 2)[1] : "insights";
  const file = args[0];
  if (!file || (which !== "insights" && which !== "linear")) {
    console.error("usage: npm run --silent sentiment -- [--model insights|linear] FILE.jsonl   (use - for stdin)");
    process.exit(2);
  }
  const input = file === "-" ? process.stdin : createReadStream(file);
  input.on("error", (error: Error) => {
    console.error(`sentiment: cannot read ${file}: ${error.message}`);
    process.exit(2);
  });
  let refused = 0;
  let line = 0;
  const read: { id: string | number; aspect: string; text: string; span: { from: number; to: number }; rating?: number }[] = [];
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    if (raw.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      refused++;
      console.error(`${file}:${line}: not JSON (${(error as Error).message})`);
      continue;
    }
    const target = Target.safeParse(parsed);
    const span = target.success ? locate(target.data) : undefined;
    if (!target.success || !span) {
      refused++;
      const why = target.success
        ? `aspect "${target.data.aspect}" does not occur in text`
        : target.error.issues.map((i) => `${i.path.join(".") || "line"}: ${i.message}`).join("; ");
      console.error(`${file}:${line}: ${why}`);
      continue;
    }
    const { id, aspect, text, rating } = target.data;
    read.push({ id, aspect, text, span, rating });
  }
  const polarities = await judgeTargets(
    read.map(({ aspect, text, span, rating }) => ({ text, ...span, aspect, rating })),
    which === "insights" ? "combined" : "linear",
    availableParallelism(),
  );
  const out: string[] = [];
  read.forEach(({ id, aspect }, i) => {
    out.push(JSON.stringify({ id, aspect, polarity: polarities[i] }));
    if (out.length >= 1000) process.stdout.write(out.splice(0).join("\n") + "\n");
  });
  if (out.length) process.stdout.write(out.join("\n") + "\n");
  if (refused) {
    console.error(`sentiment: ${refused} line(s) refused`);
    process.exitCode = 1;
  }
}

await main();
