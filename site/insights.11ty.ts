/** The insights page: insights.json as charts (views/charts.ts), quotes, topics, FAQ and summary. */
import { reviewUrl } from "../core/urls.ts";
import type { SiteData } from "../core/site-data.ts";
import { ratingBars, sentimentBars, trendLine } from "../views/charts.ts";
import { average, count, html, page } from "../views/html.ts";
import { notAnalysedSentence } from "../views/not-analysed.ts";

export const data = { permalink: "/insights/index.html" };

export function render({ dataset, feed, baseUrl, insights }: SiteData): string {
  const { business } = dataset;
  const url = (id: string) => reviewUrl(baseUrl, id);
  const aspects = insights.aspects.filter((a) => a.total > 0);
  const withReviews = <T extends { review_count: number }>(list: T[]) => list.filter((e) => e.review_count > 0);
  const quotes = aspects
    .map((a) => {
      const items = a.highlights.map(
        (h) => `<li class="${h.polarity}"><q>${html(h.quote)}</q> <a href="${url(h.review_id)}">(${h.polarity}, read the review)</a></li>`,
      );
      // One aspect's quotes at a time: all of them open made the page five phone screens longer.
      return items.length
        ? `<details><summary>${html(a.name)} (${items.length} ` +
            `${items.length === 1 ? "quote" : "quotes"})</summary><ul class="quotes">` +
            `${items.join("")}</ul></details>`
        : "";
    })
    .join("\n");
  const topic = (t: (typeof insights.topics)[number]) =>
    `<li><a href="${baseUrl}/search/?words=${encodeURIComponent(t.label)}">${html(t.label)}</a> ` +
    `(${count(t.review_count)} reviews, average ${average(t.average_rating)})</li>`;
  // Reviews not in English give their stars, not their words: the lead says how many texts were read, and why not all.
  const all = insights.generated_from.review_count;
  const left = notAnalysedSentence(insights.not_analysed);
  const read = left ? `${count(all - insights.not_analysed.review_count)} of the ${count(all)}` : count(all);
  const note = left ? ` ${html(left)}` : "";
  const body = `<h1>What customers say</h1>
<p class="lead">Computed from the text of ${read} reviews when the site was
built.${note} Every figure below cites its reviews in <a href="${baseUrl}/insights.json">insights.json</a>; <a
href="${baseUrl}/about/#insights">how it is computed</a>.</p>

<section aria-labelledby="summary"><h2 id="summary">Summary</h2>
<ul>${insights.summary.sentences.map((s) => `<li>${html(s.text)}</li>`).join("")}</ul>
</section>

<section aria-labelledby="aspects"><h2 id="aspects">Aspects of the work</h2>
${sentimentBars(
  "Positive, neutral and negative mentions per aspect",
  aspects.map((a) => ({ label: a.name, positive: a.positive, neutral: a.neutral, negative: a.negative, total: a.total })),
)}
</section>

<section aria-labelledby="trend"><h2 id="trend">Over time</h2>
${trendLine(
  "Average rating per quarter",
  insights.overview.by_quarter.map((q) => ({ label: q.quarter, value: q.average_rating, count: q.review_count })),
  { min: 1, max: 5, unit: "average stars" },
)}
</section>

<section aria-labelledby="technicians"><h2 id="technicians">Technicians</h2>
${ratingBars(
  "Average rating per technician (reviews)",
  withReviews(insights.entities.technicians).map((t) => ({ label: t.name, average: t.average_rating, count: t.review_count })),
)}
</section>

<section aria-labelledby="services"><h2 id="services">Services</h2>
${ratingBars(
  "Average rating per service (reviews)",
  withReviews(insights.entities.services).map((s) => ({ label: s.name, average: s.average_rating, count: s.review_count })),
)}
</section>

<section aria-labelledby="faq"><h2 id="faq">Questions customers raise</h2>
<dl>${insights.faq.map((f) => `<dt>${html(f.question)}</dt><dd>${html(f.answer)}</dd>`).join("")}</dl>
</section>

<section aria-labelledby="topics"><h2 id="topics">Recurring topics</h2>
<ul class="topics">${insights.topics.map(topic).join("")}</ul>
</section>

<section aria-labelledby="quotes"><h2 id="quotes">In their words</h2>
${quotes}
</section>`;
  return page({
    baseUrl,
    business,
    path: "/insights/",
    title: `What customers say about ${business.name}`,
    description: `Aspects, technicians, services and trends computed from ${count(insights.generated_from.review_count)} verified reviews.`,
    type: "WebPage",
    body,
    jsonFeedUrl: feed.jsonFeedUrl,
    atomFeedUrl: feed.atomFeedUrl,
  });
}
