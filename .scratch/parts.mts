import { readFileSync } from "node:fs";
const j = JSON.parse(readFileSync("/tmp/distx/insights.json", "utf8"));
console.log("faq", JSON.stringify(j.faq.map((f: any) => ({ q: f.question, a: f.answer }))).length, "summary", JSON.stringify(j.summary.sentences.map((s: any) => s.text)).length, "topics10", JSON.stringify(j.topics.slice(0, 10).map((t: any) => [t.label, t.review_count, t.average_rating])).length);
console.log(j.faq[0].answer);
