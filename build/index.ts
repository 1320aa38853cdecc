/** `npm run build`: validate the data and render dist/. Exit 1 with every problem listed. */
import { writeFile } from "node:fs/promises";
import { build } from "./build.ts";
import { DataError, formatProblem } from "./load/problems.ts";
import { progressDone, progressReporter } from "./progress.ts";
import { BuildSettings, parseSettings, SettingsError } from "../core/settings.ts";

try {
  const settings = parseSettings(BuildSettings, process.env);
  const started = performance.now();
  const result = await build(settings, progressReporter("build"));
  progressDone();
  const listed = Object.values(result.manifest.files);
  const copies = listed.reduce((n, f) => n + Object.keys(f.encodings).length, 0);
  // The manifest itself, the files it lists with their compressed copies, and one page a review.
  const files = 1 + listed.length + copies + result.reviews;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  // `npm run bench` times this process and reads the build's own measure of itself here.
  if (process.env.BENCH_BUILD_REPORT) {
    await writeFile(
      process.env.BENCH_BUILD_REPORT,
      JSON.stringify({ ms: Math.round(performance.now() - started), max_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024) }),
    );
  }
  for (const notice of result.notices) console.log(`note: ${notice}`);
  console.log(
    `built ${settings.DIST_DIR}/: ${files} files (${listed.length} datasets, feeds and pages with ` +
      `${copies} compressed copies, ${result.reviews} review pages, the manifest) from ` +
      `${result.reviews} published reviews (${result.withdrawn} withdrawn) in ${seconds} s`,
  );
} catch (error) {
  progressDone();
  if (error instanceof DataError) {
    console.error(`build stopped: ${error.message}; dist/ was left as it was.`);
    for (const problem of error.problems) console.error(`  - ${formatProblem(problem)}`);
  } else if (error instanceof SettingsError) {
    console.error(error.message);
  } else if ((error as Error | undefined)?.name === "ModelFileError") {
    // A model file of the insights missing or damaged (ModelFileError in
    // insights/sentiment/encoder/encoder.ts), met here or on a worker thread.
    console.error(`build stopped: ${(error as Error).message}; dist/ was left as it was.`);
  } else {
    console.error("build failed:", error);
  }
  process.exitCode = 1;
}
