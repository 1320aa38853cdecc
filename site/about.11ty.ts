/** How reviews are verified and published, and how the insights are computed. */
import type { SiteData } from "../core/site-data.ts";
import type { InsightsModel } from "../core/settings.ts";
import { count, html, page } from "../views/html.ts";

export const data = { permalink: "/about/index.html" };

const ASPECTS_NAMED = `Thirteen aspects of pest-control work, as an owner would name them (punctuality and the
notice of it, courtesy, effectiveness, thoroughness, explaining the treatment, price and value, safety for pets and
children, scheduling, the office's responsiveness, sales pressure, booking and billing, follow-up and the guarantee,
cleanliness)`;

/** How the model the build ran reads a review (INSIGHTS_MODEL: docs/insights-method.md). */
function reading(model: InsightsModel): string {
  if (model === "learned")
    return `<li><strong>Aspects and what customers thought of them.</strong> ${ASPECTS_NAMED} are read sentence by
sentence by a small language model (all-MiniLM-L6-v2, fine-tuned for this): for each sentence and each aspect, whether
the sentence speaks of it, and if so whether it praises, criticises or just states it. It was trained on about 8,400
labelled sentences (the reviews of 35 pest-control businesses in other regions, written and labelled for it, and
sentences written to draw the aspects' boundaries), never on this business's reviews, and it reads the review's
stars as one piece of evidence among others. A review not in English is not read, and is counted as such on the
insights page.</li>
`;
  return `<li><strong>Aspects.</strong> ${ASPECTS_NAMED} are found by the words that name them: "on time", "late", "price", "$150",
"voicemail", "pushy", "came back out"…</li>
<li><strong>Polarity of each mention.</strong> Two models trained on about 20,000 labelled review sentences
(restaurant reviews from the public MAMS set, and pest-control and home-service reviews written for them, many of them
complaints) read each mention. The first weighs the opinion words and phrases around it ("not a single ant since", "the
ants came back", "worth every penny"), negation ("never late"), contrast ("great tech, but the price was steep" praises
the technician and criticises the price; "pricey, but worth it" praises the value), clock times against the arrival
window, which of several things in a sentence an opinion belongs to, and the review's stars as one piece of evidence
among others. Where it is not sure, a small pretrained language model (all-MiniLM-L6-v2, fine-tuned on the same
sentences) reads the sentence too, and the two verdicts are weighed together.</li>
`;
}

/** What the blind checks found, for the model the build ran. */
function accuracy(model: InsightsModel, baseUrl: string): string {
  if (model === "learned")
    return `<p><strong>How accurate is it?</strong> We checked it on the reviews of six pest-control businesses it never
saw in training, labelled by people who did not see its answers: of the opinions it reports, 90 out of 100 name the
right aspect with the right verdict, and it finds most of the opinions the readers found. On these reviews, a person
who did not see its verdicts read 100 of its opinions picked at random, half of them from reviews of one to three
stars, and agreed on both 88 times; here it misses more of what customers say (about a quarter). So now and then a
single quote is filed under the wrong subject or read the wrong way; the counts over many reviews are steadier than any
one of them.
<a href="${baseUrl}/insights/">The insights page</a> shows each quote with its review, so any of them can be checked.</p>
`;
  return `<p><strong>How accurate is it?</strong> We checked it blind: a person who did not see the program's answers read 100
mentions picked at random from these reviews, half of them from reviews of one to three stars, and agreed with it on
both what the mention is about and what the customer thought 92 times out of 100. A second person, checking another 100,
agreed 86 times. So now and then a single quote is filed under the wrong subject or read the wrong way; the counts over
many reviews are steadier than any one of them. The quotes shown on the <a href="${baseUrl}/insights/">insights page</a>
were checked the same way, and those found wrong were left out.</p>
`;
}

export function render({ dataset, feed, baseUrl, insights }: SiteData): string {
  const { business } = dataset;
  const body = `<h1>How it works</h1>

<section aria-labelledby="verified"><h2 id="verified">Where the reviews come from</h2>
<p>${html(business.name)} publishes the reviews its own customers wrote about visits it made. Each review records the
visit: the technician or technicians who came, the services done and the town, so every review is tied to real work.</p>
<ul>
<li><strong>Nothing is filtered by rating.</strong> Every review the business received is published, one- and two-star
reviews included, with the business's public reply where it made one.</li>
<li><strong>Edits are shown.</strong> When a customer edits a review, it says so and when.</li>
<li><strong>Withdrawals are public.</strong> A review is only taken down when its author asks, when it is a duplicate,
or when it is not about this business. It then disappears from the site, the feeds and the API, and the API lists its id
among the removed ones (<code>/api/reviews/since/{date}</code>), so copies elsewhere can stay exact.
${dataset.withdrawn.length} reviews have been withdrawn so far.</li>
<li><strong>The same data everywhere.</strong> These pages, the feeds, the JSON files, the API and the MCP endpoint for
AI assistants are all built from one set of files, and each file carries a content hash (ETag) that changes with any
change.</li>
</ul>
</section>

<section aria-labelledby="insights"><h2 id="insights">How the insights are computed</h2>
<p>The <a href="${baseUrl}/insights/">insights</a> are computed from the text of the reviews each time the site is
built, by a program that runs inside the build with the models it carries, without any outside service. Nothing in them
is written by hand.</p>
<ol>
${reading(insights.generated_from.model)}
<li><strong>Figures with their evidence.</strong> Each aspect gets its positive, negative and neutral mentions, a score
and a trend by quarter; each technician, service and town its own profile. A technician's profile counts only what is
about their own visit, never the office's part (prices, booking, billing, calls, the guarantee). Every mention cites its
review and the exact clause quoted, so every figure can be checked.</li>
<li><strong>Topics, questions, summary.</strong> Topics are phrases many reviews share; the questions are the ones the
aspects answer, with how many reviewers raised them as a worry; the summary is written from the figures only.</li>
</ol>
${accuracy(insights.generated_from.model, baseUrl)}
<p>The figures on this site come from ${count(insights.generated_from.review_count)} published reviews.</p>
</section>

<section aria-labelledby="reuse"><h2 id="reuse">Using the reviews and the data</h2>
<p>Everything here is public and free to use without an account: you may read, copy, cache and quote the reviews and the
figures, in people's tools and in machines', as long as you say where they come from and link to the review (each has its
own permanent address). The reviews are the customers' own words, published by ${html(business.name)} with their consent;
do not present them as written about anyone else, or change what they say.${
    business.email ? ` For any other use, ask us at\n<a href="mailto:${html(business.email)}">${html(business.email)}</a>.` : ""
  }</p>
</section>`;
  return page({
    baseUrl,
    business,
    path: "/about/",
    title: `How the reviews of ${business.name} are published`,
    description: "How the reviews are collected, verified and published, and how the insights are computed.",
    type: "AboutPage",
    body,
    jsonFeedUrl: feed.jsonFeedUrl,
    atomFeedUrl: feed.atomFeedUrl,
  });
}
