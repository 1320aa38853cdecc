import { readFileSync } from "node:fs";
import { Insights } from "/work/main/data/schema/insights.ts";
const j = JSON.parse(readFileSync("/work/main/.bench/soak/dist/insights.json", "utf8"));
for (let i = 0; i < 3; i++) { const t = performance.now(); const r = Insights.safeParse(j); console.log(r.success, Math.round(performance.now() - t), "ms", r.success ? "" : JSON.stringify(r.error.issues.slice(0,3))); }
