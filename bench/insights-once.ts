/** Insights for one data folder, timed from inside: prints `{"ms","mentions","bytes","max_rss_mib"}`. */
import { toDataset } from "../build/dataset.ts";
import { computeInsights } from "../build/insights.ts";
import { loadData } from "../build/load.ts";

const source = await loadData(process.env.DATA_DIR!);
const dataset = toDataset(source, "https://bench.example");
const started = performance.now();
const insights = await computeInsights(dataset, "https://bench.example");
const ms = Math.round(performance.now() - started);
console.log(JSON.stringify({
  ms,
  reviews: dataset.reviews.length,
  mentions: insights.aspects.reduce((n, a) => n + a.total, 0),
  bytes: Buffer.byteLength(JSON.stringify(insights)),
  max_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
}));
