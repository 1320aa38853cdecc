/** The stylesheet and the icon: small, no framework, readable at any width, light and dark. */
export const data = {
  pagination: { data: "assets", size: 1, alias: "asset" },
  assets: ["assets/site.css", "favicon.svg"],
  permalink: (d: { asset: string }) => `/${d.asset}`,
  eleventyExcludeFromCollections: true,
};

export function render({ asset }: { asset: string }): string {
  return asset === "favicon.svg" ? ICON : CSS;
}

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path
  d="M16 2 4 7v8c0 7.5 5.1 13.4 12 15 6.9-1.6 12-7.5 12-15V7z" fill="#1a7f37"/><path d="m10 16 4 4 8-8" fill="none"
  stroke="#fff" stroke-width="3"/></svg>
`;

const CSS = `:root { --fg: #1f2328; --muted: #57606a; --bg: #ffffff; --line: #d0d7de; --link: #0550ae; --soft: #f6f8fa;
  --accent: #1a7f37; color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--fg); background: var(--bg); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible {
  outline: 3px solid #0969da; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem 1rem; }
.skip:focus { left: 1rem; z-index: 1; }
header.site, main, footer.site { max-width: 60rem; margin: 0 auto; padding: 0 1rem; overflow-wrap: anywhere; }
header.site { display: flex; flex-wrap: wrap; gap: .5rem 2rem; align-items: baseline; justify-content: space-between;
  border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; font-size: 1.15rem; margin: .8rem 0; }
.brand a { color: var(--fg); text-decoration: none; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; margin: .8rem 0; padding: 0; }
/* The current page keeps the links' weight (bold text is wider and wraps the menu at 375 px on some pages only). */
nav a[aria-current="page"] { color: var(--fg); text-decoration-thickness: 3px; text-underline-offset: .3em; }
footer.site { border-top: 1px solid var(--line); margin-top: 3rem; color: var(--muted); font-size: .9rem; }
h1 { font-size: 2rem; line-height: 1.2; margin: 1.5rem 0 .5rem; }
h2 { font-size: 1.35rem; margin: 2rem 0 .75rem; }
h3 { font-size: 1.1rem; margin: 1.25rem 0 .5rem; }
.lead { font-size: 1.1rem; color: var(--muted); }
.meta { color: var(--muted); font-size: .9rem; }
.stars { color: #9a6700; letter-spacing: .1em; }
.score strong { font-size: 2rem; }
.review { border-top: 1px solid var(--line); padding: .5rem 0 1rem; }
.review h2, .review h3 { font-size: 1.05rem; margin: .75rem 0 .25rem; }
.review .text { white-space: pre-line; }
.response { border-left: 4px solid var(--line); padding: .25rem .75rem; background: var(--soft); }
.distribution { list-style: none; padding: 0; max-width: 28rem; }
.distribution li { display: grid; grid-template-columns: 4.5rem 1fr 6rem; gap: .5rem; align-items: center; }
.distribution .bar { background: var(--soft); border: 1px solid var(--line); height: .9rem; }
.distribution .bar span { display: block; height: 100%; background: var(--accent); }
.filters { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: end; background: var(--soft);
  padding: .75rem 1rem; border: 1px solid var(--line); }
.filters .words { flex: 1 1 14rem; }
.filters .more { order: 1; flex-basis: 100%; }
.filters .more summary { cursor: pointer; font-weight: 600; font-size: .9rem; padding: .25rem 0; }
.filters .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .75rem 1rem;
  align-items: end; padding-top: .5rem; }
.filters label { display: block; font-weight: 600; font-size: .9rem; }
.filters input, .filters select, button { font: inherit; width: 100%; padding: .4rem .5rem; border: 1px solid #8c959f;
  border-radius: 4px; background: var(--bg); color: var(--fg); }
.filters .actions { display: flex; gap: .5rem; }
button { cursor: pointer; width: auto; background: var(--soft); }
/* On a phone the filters, even all open, leave the first review on the first screen. */
@media (max-width: 40rem) {
  h1 { margin-top: 1rem; }
  nav ul { gap: .25rem 1rem; margin-top: 0; }
  .filters { gap: .4rem .75rem; padding: .5rem .75rem; }
  .filters .grid { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: .35rem .75rem; padding-top: .25rem; }
  .filters label, .filters .more summary { font-size: .85rem; }
  .filters .more summary { padding: 0; }
  .filters input, .filters select, .filters button, .filters .button { padding: .2rem .4rem; }
}
button[type="submit"] { background: #0969da; color: #fff; border-color: #0969da; }
button:disabled { opacity: .5; cursor: not-allowed; }
a.button { display: inline-block; padding: .4rem .75rem; border: 1px solid #8c959f; border-radius: 4px;
  background: var(--soft); color: var(--fg); text-decoration: none; }
.book a.button { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600;
  font-size: 1.1rem; padding: .55rem 1rem; }
.paging { display: flex; gap: 1rem; margin: 1rem 0; }
figure.chart { margin: 1rem 0 2rem; }
figcaption { color: var(--muted); font-size: .9rem; margin-bottom: .5rem; }
.bars .row { display: grid; grid-template-columns: minmax(7rem, 15rem) 1fr 5.5rem; gap: .2rem .75rem;
  align-items: center; margin: .35rem 0; }
.bars .bar { display: flex; height: 1.15rem; background: var(--soft); border: 1px solid var(--line); border-radius: 2px; overflow: hidden; }
.bars .bar > span, .legend .key { display: inline-block; height: 100%; }
.bars .positive, .legend .positive { background: #1a7f37; }
.bars .neutral, .legend .neutral { background: #6e7781; }
.bars .negative, .legend .negative { background: #cf222e; }
.bars .rating { background: #0969da; }
.bars .value { font-variant-numeric: tabular-nums; }
.legend { color: var(--muted); font-size: .9rem; }
.legend .key { width: .8rem; height: .8rem; vertical-align: -.1rem; }
figure.chart svg { width: 100%; height: auto; font: 13px system-ui, sans-serif; fill: var(--fg); }
figure.chart svg.narrow { display: none; }
.chart .grid { stroke: var(--line); }
.chart .line { stroke: var(--link); stroke-width: 2; fill: none; }
.chart .dot { fill: var(--link); }
.chart .cut { stroke: var(--fg); stroke-width: 1.5; fill: none; }
@media (max-width: 40rem) {
  .bars .row { grid-template-columns: 1fr auto; }
  .bars .label { grid-column: 1 / -1; }
  figure.chart svg.wide { display: none; }
  figure.chart svg.narrow { display: block; }
  /* A figures table stacks on a phone: each row its heading, then "column: figure" lines. */
  table.figures, table.figures tbody, table.figures tr, table.figures th, table.figures td { display: block; border: 0; padding: 0; }
  table.figures thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.figures tr { border-top: 1px solid var(--line); padding: .35rem 0; }
  table.figures td { display: inline-block; margin-right: 1rem; }
  table.figures td::before { content: attr(data-label) ": "; color: var(--muted); }
  /* The API page's parameters stack the same way, the description on its own line. */
  table.parameters, table.parameters tbody, table.parameters tr, table.parameters th, table.parameters td { display: block; border: 0; }
  table.parameters thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.parameters caption { display: block; text-align: left; font-weight: 600; }
  table.parameters tr { border-top: 1px solid var(--line); padding: .35rem 0; }
  table.parameters th, table.parameters td { padding: 0; }
  table.parameters td[data-label=In], table.parameters td[data-label=Type] { display: inline-block; margin-right: 1rem; }
  table.parameters td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
  table.parameters td[data-label=Description]::before { content: none; }
}
table { border-collapse: collapse; margin: .5rem 0; display: block; max-width: 100%; overflow-x: auto; overflow-wrap: normal; }
table code { white-space: nowrap; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
pre { background: var(--soft); padding: .75rem; overflow-x: auto; border: 1px solid var(--line); }
/* Snippets and examples wrap rather than hide their end: a copy still gets the one line. */
pre.snippet, pre.example { white-space: pre-wrap; overflow-wrap: anywhere; }
code { font-size: .9em; }
.quotes li { margin: .4rem 0; }
dt { font-weight: 600; margin-top: .75rem; }
dd { margin-left: 0; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --line: #3d444d; --link: #4493f8; --soft: #151b23; color-scheme: dark; }
  .stars { color: #d29922; }
}
`;
