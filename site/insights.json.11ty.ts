/** `/insights.json`: figures computed from the reviews at build time (build/insights.ts). */
import { Insights } from "../core/schema/insights.ts";
import type { SiteData } from "../core/site-data.ts";
import { checkedJson } from "./_lib/checked.ts";

export const data = { permalink: "/insights.json", eleventyExcludeFromCollections: true };

export function render({ insights }: SiteData): string {
  return checkedJson("insights.json", Insights, insights);
}
