/** `npm run build`: validate the data and render dist/. Exit 1 with every problem listed. */
import { build } from "./build.ts";
import { DataError, formatProblem } from "./problems.ts";
import { progressDone, progressReporter } from "./progress.ts";
import { BuildSettings, parseSettings, SettingsError } from "../core/settings.ts";

try {
  const settings = parseSettings(BuildSettings, process.env);
  const started = performance.now();
  const result = await build(settings, progressReporter("build"));
  progressDone();
  const files = Object.keys(result.manifest.files).length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`built ${settings.DIST_DIR}/: ${files} files from ${result.reviews} published reviews (${result.withdrawn} withdrawn) in ${seconds} s`);
} catch (error) {
  progressDone();
  if (error instanceof DataError) {
    console.error(`build stopped: ${error.message}; dist/ was left as it was.`);
    for (const problem of error.problems) console.error(`  - ${formatProblem(problem)}`);
  } else if (error instanceof SettingsError) {
    console.error(error.message);
  } else {
    console.error("build failed:", error);
  }
  process.exitCode = 1;
}
