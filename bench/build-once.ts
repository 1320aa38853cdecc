/** One build, measured from inside: prints `{"ms":..,"max_rss_mib":..,"reviews":..}` on stdout. */
import { build } from "../build/build.ts";
import { BuildSettings, parseSettings } from "../core/settings.ts";

const started = performance.now();
const result = await build(parseSettings(BuildSettings, process.env));
console.log(
  JSON.stringify({
    ms: Math.round(performance.now() - started),
    max_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
    reviews: result.reviews,
  }),
);
