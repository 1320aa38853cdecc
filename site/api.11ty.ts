/** The API page: the OpenAPI document the sidecar serves, rendered for people. */
import type { SiteData } from "../core/site-data.ts";
import { openApiDocument } from "../core/api/openapi.ts";
import { html, page } from "../views/html.ts";
import { EMBED_REVIEWS } from "./embed.11ty.ts";
import { widgetSnippets } from "../views/widgets.ts";

export const data = { permalink: "/api/index.html" };

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: { type?: string | string[]; enum?: unknown[]; description?: string; minimum?: number; maximum?: number; format?: string };
}
interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
}
interface Operation {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}

/** A response body's members, two levels deep, from its schema (components resolved). */
function shape(schema: Schema | undefined, components: Record<string, Schema>, depth = 0): string {
  const resolve = (s: Schema | undefined): Schema | undefined => (s?.$ref ? components[s.$ref.split("/").pop()!] : s);
  const s = resolve(schema);
  if (!s?.properties || depth > 1) return "";
  const items = Object.entries(s.properties).map(([name, raw]) => {
    const p = resolve(raw) ?? {};
    const inner = resolve(p.items);
    const kind =
      p.type === "array"
        ? `array${inner?.type ? ` of ${inner.type}` : ""}`
        : Array.isArray(p.type)
          ? p.type.join(" or ")
          : (p.type ?? (p.anyOf ? "one of several" : "any"));
    const optional = s.required?.includes(name) ? "" : ", optional";
    const nested = shape(p.type === "array" ? p.items : raw, components, depth + 1);
    return (
      `<li><code>${html(name)}</code> (${html(kind)}${optional})` +
      `${(p.description ?? raw.description) ? `: ${html((p.description ?? raw.description)!)}` : ""}${nested}</li>`
    );
  });
  return `<ul class="shape">${items.join("")}</ul>`;
}

const EXAMPLES: Record<string, string> = {
  "GET /reviews.json": "curl -i BASE/reviews.json",
  "GET /insights.json": "curl BASE/insights.json",
  "GET /api/feed.json": "curl BASE/api/feed.json",
  "GET /feed.xml": "curl BASE/feed.xml",
  "GET /api/reviews/search": "curl 'BASE/api/reviews/search?min_rating=4&query=spiders&limit=5'",
  "GET /api/reviews/since/{date}": "curl BASE/api/reviews/since/2026-10-01",
  "POST /api/websub/hub":
    "curl -d hub.mode=subscribe -d hub.topic=BASE/feed.xml -d hub.callback=https://example.org/callback BASE/api/websub/hub",
  "POST /mcp":
    `curl -X POST BASE/mcp -H 'content-type: application/json' -H 'accept: application/json, ` +
    `text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
    `"capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'`,
};

/** A parameter as a row of the operation's table: name (and whether it is required), place, type, description. */
function parameterRow(p: Parameter): string {
  const name = `<code>${html(p.name)}</code>${p.required ? " (required)" : ""}`;
  const description = html(p.description ?? p.schema?.description ?? "");
  return (
    `<tr><th scope="row">${name}</th><td data-label="In">${p.in}</td><td data-label="Type">${html(type(p))}</td>` +
    `<td data-label="Description">${description}</td></tr>`
  );
}

function type(p: Parameter): string {
  const s = p.schema ?? {};
  const base = Array.isArray(s.type) ? s.type.join(" or ") : (s.type ?? "");
  const extra = [
    s.format,
    s.enum && `one of ${s.enum.join(", ")}`,
    s.minimum !== undefined && `≥ ${s.minimum}`,
    s.maximum !== undefined && `≤ ${s.maximum}`,
  ]
    .filter(Boolean)
    .join(", ");
  return extra ? `${base} (${extra})` : base;
}

export function render({ dataset, feed, baseUrl, openapiUrl }: SiteData): string {
  const doc = openApiDocument(baseUrl, dataset.business) as unknown as {
    info: { description: string };
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };
  const sections = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const key = `${method.toUpperCase()} ${path}`;
      const id = key
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "");
      const params = op.parameters?.length
        ? `<table class="parameters"><caption>Parameters</caption><thead><tr><th scope="col">Name</th><th scope="col">In</th>
<th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody>
${op.parameters.map(parameterRow).join("\n")}
</tbody></table>`
        : "";
      const responses = Object.entries(op.responses ?? {})
        .map(([code, r]) => {
          // The success body's shape; errors share one, described once (Error).
          const body = code.startsWith("2") ? shape(Object.values(r.content ?? {})[0]?.schema, doc.components.schemas) : "";
          return `<li><strong>${code}</strong>: ${html(r.description ?? "")}${body}</li>`;
        })
        .join("");
      const example = EXAMPLES[key]?.replaceAll("BASE", baseUrl);
      return `<section aria-labelledby="${id}">
<h2 id="${id}"><code>${html(key)}</code></h2>
<p>${html(op.summary ?? "")}</p>${op.description ? `\n<p>${html(op.description)}</p>` : ""}
${params}
<h3>Responses</h3><ul>${responses}</ul>${example ? `\n<h3>Example</h3><pre class="example"><code>${html(example)}</code></pre>` : ""}
</section>`;
    }),
  );
  const body = `<h1>For developers: the API and the data</h1>
<p class="lead">${html(doc.info.description)}</p>
<section aria-labelledby="data">
<h2 id="data">The data, for machines</h2>
<ul>
<li>Feeds: <a href="${html(feed.atomFeedUrl)}">Atom</a> and <a href="${html(feed.jsonFeedUrl)}">JSON Feed</a>, with
WebSub push from <code>${html(feed.hubUrl)}</code>.</li>
<li>Every review: <a href="${baseUrl}/reviews.json">reviews.json</a>; the insights: <a
href="${baseUrl}/insights.json">insights.json</a>.</li>
<li>For AI assistants: the Model Context Protocol endpoint <code>${html(baseUrl)}/mcp</code> (streamable HTTP), and <a
href="${baseUrl}/llms.txt">llms.txt</a>.</li>
</ul>
</section>
${ownSite(baseUrl, dataset.business.name)}
<p>The machine-readable description of the routes below: <a href="${openapiUrl}">OpenAPI 3.1</a>. This page is rendered from it.</p>
${sections.join("\n")}`;
  return page({
    baseUrl,
    business: dataset.business,
    path: "/api/",
    title: `API: ${dataset.business.name} reviews`,
    description: "Routes, parameters and examples of the public reviews API, MCP endpoint and WebSub hub.",
    type: "WebPage",
    body,
    jsonFeedUrl: feed.jsonFeedUrl,
    atomFeedUrl: feed.atomFeedUrl,
  });
}

/** For the owner: the rating badge and the reviews widget, each as a snippet to paste into their own site. */
function ownSite(baseUrl: string, name: string): string {
  const { badge, embed } = widgetSnippets(baseUrl, html(name));
  return `<section aria-labelledby="own-site">
<h2 id="own-site">On your own website</h2>
<p>A badge with the rating and the number of reviews (<a href="${baseUrl}/badge.svg">badge.svg</a>), and a widget with
the ${EMBED_REVIEWS} newest reviews (<a href="${baseUrl}/embed/">/embed/</a>: no cookies, as wide as its frame, each
review linking to its page). Both follow every new review. <code>theme=light</code> (the default) suits a light page,
<code>theme=dark</code> a dark one, <code>theme=auto</code> follows the visitor's system. The widget's frame takes the
widget's height from the line of script after it; without it, the frame stays 640 px tall and scrolls. Copy and
paste:</p>
<h3>The badge</h3>
<pre class="snippet"><code id="snippet-badge">${html(badge)}</code></pre>
<h3>The widget</h3>
<pre class="snippet"><code id="snippet-widget">${html(embed)}</code></pre>
</section>`;
}
