/** The home page, for the business's customers: who it is and how to book, its rating and how it is spread, the newest reviews. */
import type { SiteData } from "../core/site-data.ts";
import { average, businessLd, count, html, jsonLd, names, page, reviewArticle, reviewLd } from "../views/html.ts";

export const data = { permalink: "/index.html" };

const DAYS: Record<string, string> = { Mo: "Mon", Tu: "Tue", We: "Wed", Th: "Thu", Fr: "Fri", Sa: "Sat", Su: "Sun" };

/** " · Mon–Fri 07:00–18:00, Sat 08:00–12:00", from the opening hours. */
/** How to book: by phone, by email, or both, as the business gives them. */
function book({ telephone, email }: SiteData["dataset"]["business"]): string {
  const write = email && `write to <a href="mailto:${html(email)}">${html(email)}</a>`;
  const call = telephone && `<a class="button" href="tel:${html(telephone)}">Call ${html(telephone)} to book</a>`;
  if (call) return `<p class="book">${call}${write ? ` or\n${write}` : ""}.</p>`;
  return write ? `<p class="book">To book, ${write}.</p>` : "";
}

function hours(list: { days: string[]; opens: string; closes: string }[]): string {
  const spans = list.map((h) => {
    const days = h.days.length > 2 ? `${DAYS[h.days[0]!]}–${DAYS[h.days.at(-1)!]}` : h.days.map((d) => DAYS[d]).join(", ");
    return `${days} ${h.opens}–${h.closes}`;
  });
  return spans.length ? ` · ${html(spans.join(", "))}` : "";
}

export function render({ dataset, feed, baseUrl }: SiteData): string {
  const { business, aggregate_rating: rating } = dataset;
  const n = names(business);
  const newest = feed.items.slice(0, 10).map((i) => i.review);
  const max = Math.max(1, ...Object.values(rating.rating_counts));
  const distribution = (["5", "4", "3", "2", "1"] as const)
    .map((star) => {
      const tally = rating.rating_counts[star];
      const pct = rating.review_count ? Math.round((tally / rating.review_count) * 100) : 0;
      return (
        `<li><span class="label">${star} ${star === "1" ? "star" : "stars"}</span><span class="bar" ` +
        `aria-hidden="true"><span style="width:${Math.round((tally / max) * 100)}%"></span></span><span ` +
        `class="count">${count(tally)} (${pct}%)</span></li>`
      );
    })
    .join("\n");
  const ld = {
    "@context": "https://schema.org",
    ...businessLd(business, baseUrl),
    aggregateRating: {
      "@type": "AggregateRating",
      ratingValue: rating.rating_value,
      reviewCount: rating.review_count,
      bestRating: 5,
      worstRating: 1,
    },
    review: newest.map((r) => reviewLd(r, baseUrl)),
  };
  const body = `<h1>${html(business.name)}</h1>
<p class="lead">${html(business.description)}</p>
${book(business)}
<p class="contact">${
    business.address
      ? `${html(business.address.street)}, ${html(business.address.locality)},
${html(business.address.region)} ${html(business.address.postal_code)}`
      : ""
  }${hours(business.opening_hours)}</p>

<section aria-labelledby="rating">
<h2 id="rating">Rating</h2>
<p class="score"><strong>${average(rating.rating_value)}</strong> out of 5 from <a
href="${baseUrl}/reviews/">${count(rating.review_count)} verified reviews</a>.</p>
<ul class="distribution" aria-label="Reviews per star rating">
${distribution}
</ul>
<p><a href="${baseUrl}/insights/">What customers say about punctuality, price, effectiveness and more</a>.</p>
</section>

<section aria-labelledby="newest">
<h2 id="newest">Newest reviews</h2>
${newest.map((r) => reviewArticle(r, n, { heading: "h3", link: true })).join("\n")}
<p><a href="${baseUrl}/reviews/">All reviews, with filters</a></p>
</section>`;
  return page({
    baseUrl,
    business,
    path: "/",
    title: `${business.name}: verified reviews`,
    description: business.description,
    body,
    head: jsonLd(ld),
    jsonFeedUrl: feed.jsonFeedUrl,
    atomFeedUrl: feed.atomFeedUrl,
  });
}
