/**
 * The models read a text the same on an x86-64 CPU without AVX-512 or VNNI: Node run under
 * qemu-user as a Haswell (AVX2, FMA), whose instruction sets onnxruntime then chooses its kernels
 * from, against Node run natively. On AVX2 the kernel for int8 weights saturates; the committed
 * weights are uint8 (eval/encoder/unsigned_weights.py), and without them this test fails (the
 * aspect models up to 0.24 apart). Needs Debian's qemu-user; .ci/run installs it and sets
 * REQUIRE_QEMU.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCommand } from "../helpers/run.ts";

const qemu = (() => {
  try {
    return execFileSync("sh", ["-c", "command -v qemu-x86_64"], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
})();
if (!qemu && process.env.REQUIRE_QEMU) throw new Error("REQUIRE_QEMU is set and qemu-x86_64 is not installed (apt-get install qemu-user)");
if (!qemu && process.arch === "x64") console.warn("skipped: the models under an emulated AVX2 CPU (apt-get install qemu-user)");

type Probe = { aspects: { probabilities: number[][]; calls: string[][] }; encoder: { polarity: string; probabilities: number[] }[] };

async function probe(prefix: string[]): Promise<Probe> {
  const [command, ...args] = [...prefix, process.execPath, "--import", "tsx", "tests/sentiment/cpu-probe.ts"];
  const run = await runCommand(command!, args);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Probe;
}

describe.skipIf(!qemu || process.arch !== "x64")("the models on an AVX2 CPU without VNNI (emulated)", () => {
  it("give the encoder's judgements and the aspect model's calls of this CPU", async () => {
    const [here, avx2] = await Promise.all([probe([]), probe([qemu, "-cpu", "Haswell-v4"])]);
    expect(avx2.encoder.map((j) => j.polarity)).toEqual(here.encoder.map((j) => j.polarity));
    const gaps = here.encoder.flatMap((j, i) => j.probabilities.map((p, k) => Math.abs(p - avx2.encoder[i]!.probabilities[k]!)));
    expect(Math.max(...gaps)).toBeLessThan(0.06);
    expect(avx2.aspects.calls).toEqual(here.aspects.calls);
    const aspectGaps = here.aspects.probabilities.flatMap((row, i) => row.map((p, k) => Math.abs(p - avx2.aspects.probabilities[i]![k]!)));
    expect(aspectGaps.reduce((a, b) => a + b, 0) / aspectGaps.length).toBeLessThan(0.002);
  }, 1_200_000);
});
