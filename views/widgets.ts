/** The widgets' pages per theme (core/widgets.ts), and the snippets that frame them. */
import { EMBED_MESSAGE, THEMES, themedPath, type Theme, type WIDGET_PATHS } from "../core/widgets.ts";

/** CSS for a theme, from a rule block's light and dark declarations (`:root { … }` bodies). */
export function themeCss(theme: Theme, selector: string, light: string, dark: string): string {
  if (theme === "light") return `${selector} { ${light} }`;
  if (theme === "dark") return `${selector} { ${dark} }`;
  return `${selector} { ${light} }\n@media (prefers-color-scheme: dark) { ${selector} { ${dark} } }`;
}

/** Eleventy's pagination of a widget's template over the themes: one file per theme. */
export function perTheme(path: (typeof WIDGET_PATHS)[number]) {
  return {
    pagination: { data: "themes", size: 1, alias: "theme" },
    themes: THEMES,
    permalink: ({ theme }: { theme: Theme }) => {
      const at = themedPath(path, theme);
      return at.endsWith("/") ? `${at}index.html` : at;
    },
    eleventyExcludeFromCollections: true,
  };
}

/**
 * The snippets the owner pastes: the badge, and the embed in a frame that takes the height the
 * embed tells it (without scripts, it keeps 640 px and scrolls). The frame is a block, so pasted
 * after the badge it starts on a line of its own rather than beside the badge on its baseline.
 */
export function widgetSnippets(baseUrl: string, name: string, theme: Theme = "light"): { badge: string; embed: string } {
  const query = `?theme=${theme}`;
  const origin = new URL(baseUrl).origin;
  return {
    badge:
      `<a href="${baseUrl}/"><img src="${baseUrl}/badge.svg${query}" width="210" height="56" alt="` +
      `${name}: verified customer reviews and rating"></a>`,
    embed:
      `<iframe id="reviewcast-embed" src="${baseUrl}/embed/${query}" title="Reviews of ${name}" ` +
      `width="100%" height="640" style="display:block; border:0; max-width:40rem" loading="lazy"></iframe>\n` +
      `<script>addEventListener("message", (e) => { if (e.origin === "${origin}" && e.data?.type === ` +
      `"${EMBED_MESSAGE}") document.getElementById("reviewcast-embed").style.height = e.data.height + ` +
      `"px"; });</script>`,
  };
}
