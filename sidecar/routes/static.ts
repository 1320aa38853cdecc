/**
 * Files the build wrote, from the loaded bundle (memory, or the dist/ files themselves for the
 * large ones): the manifest's strong ETag and Last-Modified, the precompressed copy the client
 * accepts, and WebSub discovery links on the three topics.
 */
import { getValidatedQuery, type H3Event, type HTTPResponse } from "h3";
import { FastResponse } from "srvx";
import type { PublicReview } from "../../core/schema/public.ts";
import { names } from "../../views/html.ts";
import { reviewPage as renderReviewPage, type ReviewPageContext } from "../../views/review-page.ts";
import { identityOf, type Bundle, type BundleRef, type StaticFile } from "../bundle.ts";
import { discoveryLinks, TOPICS } from "../../core/urls.ts";
import { strongEtag } from "../../core/dist/etag.ts";
import { chooseEncoding } from "../http/encoding.ts";
import { errorResponse, notFound } from "../http/errors.ts";
import type { Handler } from "../http/handler.ts";
import { represent } from "../http/respond.ts";
import { themedPath, WIDGET_PATHS } from "../../core/widgets.ts";
import { WidgetParams } from "../../core/api/params.ts";
import { strictQuery } from "../http/query.ts";

export function defineStaticRoute(bundle: BundleRef, baseUrl: string): Handler {
  const widgetQuery = strictQuery(WidgetParams);
  return async (request, url, _params, event) => {
    // A widget's address with `?theme=` is the copy built for that theme (views/widgets.ts); its
    // query is held to search's rules, so an unknown, repeated or empty parameter is a 400 naming it.
    const widget = WIDGET_PATHS.find((p) => p === url.pathname);
    const path = widget ? themedPath(widget, (await getValidatedQuery(event, widgetQuery)).theme) : url.pathname;
    const file = findFile(bundle.current.files, path);
    if (!file && bundle.current.files.has(`${path}/index.html`)) return withSlash(url);
    if (!file) return reviewPage(bundle, event, url);
    const coding = chooseEncoding(request.headers.get("accept-encoding"), file.encoded);
    const headers: Record<string, string> = {};
    if (file.encoded.br || file.encoded.gzip) headers.vary = "Accept-Encoding";
    // The WebSub topics name their hub and themselves (WebSub §4, discovery).
    if (TOPICS.some((t) => t.path === file.path)) headers.link = discoveryLinks(baseUrl, `${baseUrl}${file.path}`);
    const tag = (c?: string) => (c ? `${file.etag.slice(0, -1)}-${c}"` : file.etag);
    return represent(event, {
      body: coding ? file.encoded[coding]! : file.body,
      contentType: file.contentType,
      cacheControl: file.contentType.startsWith("text/html") ? "public, max-age=60" : "public, max-age=300",
      // Each coding is its own representation with its own strong tag (RFC 9110 §8.8.3);
      // any of them revalidates, since they all stand for the same bytes.
      etag: tag(coding),
      sameAs: [tag(), tag("br"), tag("gzip")],
      lastModified: file.lastModified,
      contentEncoding: coding,
      headers,
    });
  };
}

const REVIEW_PATH = /^\/reviews\/([A-Za-z0-9][A-Za-z0-9_-]*)(\/?)$/;

/**
 * A review's page (/reviews/{id}/): made here from the loaded bundle, with the template the build
 * writes reviews/{id}.html with (views/review-page.ts), so the same bytes. The build's files
 * are for the CDN: read from disk, they would come from whatever dist/ is there now, a newer one
 * not loaded yet or one refused (built for another BASE_URL), and not from the bundle served.
 */
function reviewPage(bundle: BundleRef, event: H3Event, url: URL): Response | HTTPResponse {
  const current = bundle.current;
  const match = REVIEW_PATH.exec(url.pathname);
  const changed = match && current.index.changedAt(match[1]!);
  if (!match || !changed) return missing(bundle, event.req, url, match?.[1]);
  if (!match[2]) return withSlash(url);
  const review = current.index.review(match[1]!) as PublicReview;
  const body = Buffer.from(renderReviewPage(review, pageContext(current)));
  return represent(event, {
    body,
    contentType: "text/html; charset=utf-8",
    cacheControl: "public, max-age=60",
    etag: strongEtag(body),
    lastModified: new Date(changed),
  });
}

/** A page's address without its trailing slash (/insights, /reviews/{id}) is a permanent redirect to it, query kept. */
function withSlash(url: URL): Response {
  return new Response(null, { status: 308, headers: { location: `${url.pathname}/${url.search}` } });
}

/** What every review page of a bundle shares, as build/render/pages.ts makes it: once per bundle. */
const contexts = new WeakMap<Bundle, ReviewPageContext>();

function pageContext(bundle: Bundle): ReviewPageContext {
  let context = contexts.get(bundle);
  if (!context) {
    const baseUrl = bundle.manifest.base_url;
    const business = bundle.dataset.business;
    context = { baseUrl, business, names: names(business), jsonFeedUrl: `${baseUrl}/api/feed.json`, atomFeedUrl: `${baseUrl}/feed.xml` };
    contexts.set(bundle, context);
  }
  return context;
}

/**
 * Nothing here: a browser (it asks for text/html) gets the built 404 page, as the CDN serves it;
 * an API client the JSON error. A review that was withdrawn is 410 Gone, either way.
 */
function missing(bundle: BundleRef, request: Request, url: URL, reviewId?: string): Response {
  const gone = reviewId !== undefined && bundle.current.withdrawn.some((w) => w.id === reviewId);
  const page = bundle.current.files.get("/404.html");
  if (page && prefersHtml(request.headers.get("accept"))) {
    return new FastResponse(request.method === "HEAD" ? null : (identityOf(page) as unknown as BodyInit), {
      status: gone ? 410 : 404,
      headers: { "content-type": page.contentType, "cache-control": "public, max-age=60" },
    });
  }
  if (gone) return errorResponse(410, "gone", `${url.pathname}: this review was withdrawn and is no longer published`);
  return notFound(url.pathname);
}

/** Whether an Accept header names HTML before JSON (browsers send text/html first; fetch sends star/star). */
function prefersHtml(accept: string | null): boolean {
  if (!accept) return false;
  const html = accept.indexOf("text/html");
  const json = accept.indexOf("application/json");
  return html !== -1 && (json === -1 || html < json);
}

function findFile(files: Map<string, StaticFile>, path: string): StaticFile | undefined {
  if (path.endsWith("/")) return files.get(`${path}index.html`);
  return files.get(path);
}
