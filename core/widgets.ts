/**
 * The business's widgets for its own site (the badge and the embed), each built once per theme:
 * `theme=light` (the default), `dark`, or `auto` (as the visitor's system prefers). The page that
 * frames a widget chooses, since only it knows its own background; the sidecar and the CDN's
 * rules (netlify.toml) map `?theme=` to the copy built for it (views/widgets.ts builds them).
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

/** What the embed posts to the page framing it: its height in CSS pixels (`{ type, height }`). */
export const EMBED_MESSAGE = "reviewcast:embed-height";
