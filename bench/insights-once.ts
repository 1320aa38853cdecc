/** Insights for one data folder, timed from inside: prints `{"ms","mentions","bytes","max_rss_mib"}`. */
import { BuildCache } from "../build/cache/cache.ts";
import { published, publicReviews } from "../build/load/dataset.ts";
import { loadData } from "../build/load/load.ts";
import { insightsOf } from "../build/outputs/insights.ts";
import { toJson } from "../core/json.ts";

const baseUrl = "https://bench.example";
const source = await loadData(process.env.DATA_DIR!);
const cache = await BuildCache.open(undefined);
const started = performance.now();
const reviews = publicReviews(source.reviews, baseUrl);
const head = published(source, reviews, baseUrl);
const insights = (await insightsOf(source, reviews, head, { baseUrl, model: "combined", cache })).figures;
const bytes = Buffer.byteLength(toJson(insights));
const ms = Math.round(performance.now() - started);
console.log(
  JSON.stringify({
    ms,
    reviews: head.aggregate_rating.review_count,
    mentions: insights.aspects.reduce((n, a) => n + a.total, 0),
    bytes,
    max_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
