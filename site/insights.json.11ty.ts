/** `/insights.json`: figures computed from the reviews at build time (build/insights.ts). */
import type { SiteData } from "../build/render.ts";

export const data = { permalink: "/insights.json", eleventyExcludeFromCollections: true };

export function render({ insights }: SiteData): string {
  return JSON.stringify(insights);
}
