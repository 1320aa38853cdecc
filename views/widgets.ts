/**
 * The business's widgets for its own site (the badge and the embed), each built once per theme:
 * `theme=light` (the default), `dark`, or `auto` (as the visitor's system prefers). The page that
 * frames a widget chooses, since only it knows its own background; the sidecar and the CDN's
 * rules (netlify.toml) map `?theme=` to the copy built for it.
 */

export const THEMES = ["light", "dark", "auto"] as const;
export type Theme = (typeof THEMES)[number];

/** The widgets' addresses, as a page links them. */
export const WIDGET_PATHS = ["/badge.svg", "/embed/"] as const;

/**
 * The file a widget's address with `?theme=` is built at: the light copy at the address itself.
 *
 * @example themedPath("/badge.svg", "dark") // "/badge-dark.svg"
 * @example themedPath("/embed/", "auto") // "/embed/auto/"
 */
export function themedPath(path: (typeof WIDGET_PATHS)[number], theme: Theme): string {
  if (theme === "light") return path;
  return path === "/badge.svg" ? `/badge-${theme}.svg` : `/embed/${theme}/`;
}

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

/** What the embed posts to the page framing it: its height in CSS pixels (`{ type, height }`). */
export const EMBED_MESSAGE = "reviewcast:embed-height";

/**
 * The snippets the owner pastes: the badge, and the embed in a frame that takes the height the
 * embed tells it (without scripts, it keeps 640 px and scrolls).
 */
export function widgetSnippets(baseUrl: string, name: string, theme: Theme = "light"): { badge: string; embed: string } {
  const query = `?theme=${theme}`;
  const origin = new URL(baseUrl).origin;
  return {
    badge: `<a href="${baseUrl}/"><img src="${baseUrl}/badge.svg${query}" width="210" height="56" alt="${name}: verified customer reviews and rating"></a>`,
    embed:
      `<iframe id="reviewcast-embed" src="${baseUrl}/embed/${query}" title="Reviews of ${name}" width="100%" height="640" style="border:0; max-width:40rem" loading="lazy"></iframe>\n` +
      `<script>addEventListener("message", (e) => { if (e.origin === "${origin}" && e.data?.type === "${EMBED_MESSAGE}") document.getElementById("reviewcast-embed").style.height = e.data.height + "px"; });</script>`,
  };
}
