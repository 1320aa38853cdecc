/**
 * The sidecar's h3 app, built from its dependencies: the bundle reference and the settings.
 * Every route declares its methods, registered in h3's router; another method gets 405 with
 * Allow, OPTIONS a CORS preflight, HEAD the GET response without its body. Unknown paths are JSON
 * 404s, and nothing a client sends reaches the 500 handler except a bug, which is logged and
 * answered in JSON.
 */
import { H3, HTTPError, type H3Event, type HTTPMethod } from "h3";
import type { BundleRef } from "./bundle.ts";
import { preflight } from "./http/cors.ts";
import type { Handler, Methods } from "./http/handler.ts";
import { errorResponse, invalidParameters, malformedUrl, methodNotAllowed } from "./http/errors.ts";
import { issuesOf } from "./http/query.ts";
import { malformedParts } from "./http/url.ts";
import { VERSION } from "../core/api/openapi.ts";
import { defineOpenApiRoute } from "./routes/openapi.ts";
import { defineSearchPageRoute } from "./routes/search-page.ts";
import { defineSearchRoute } from "./routes/search.ts";
import { defineSinceRoute } from "./routes/since.ts";
import { defineStaticRoute } from "./routes/static.ts";
import type { Hub } from "./hub/hub.ts";
import { defineHubRoute, type HubRouteOptions } from "./hub/route.ts";
import { defineMcpRoute, type McpDeps } from "./mcp/route.ts";
import type { SidecarSettings } from "./settings.ts";
import { isDatabaseError } from "./store/errors.ts";
import { DistFileError } from "./dist-file.ts";

export interface AppDeps {
  bundle: BundleRef;
  settings: Pick<SidecarSettings, "BASE_URL">;
  /** The MCP endpoint's session signing, revocations and DNS-rebinding allow-lists. */
  mcp: Omit<McpDeps, "bundle" | "baseUrl" | "version">;
  /** The WebSub hub; without it /api/websub/hub is not served (tests of other routes). */
  hub?: { hub: Hub; options: HubRouteOptions };
  log?: (message: string, error?: unknown) => void;
}

export function createApp(deps: AppDeps): H3 {
  const log = deps.log ?? ((message, error) => console.error(message, error));
  const app = new H3({
    // h3 would log each unhandled error itself, a second time beside onError's own line.
    silent: true,
    // A malformed URL is answered below, naming the part that does not decode (http/url.ts).
    allowMalformedURL: true,
    onError(error: HTTPError, event: H3Event) {
      // A refused parameter (h3's getValidatedQuery and the like) is named, as every 400 names it.
      const issues = issuesOf(error);
      if (issues) return invalidParameters(issues);
      // A client error h3 raises itself keeps the contract's body.
      if (error.status >= 400 && error.status < 500) return errorResponse(error.status, "bad_request", error.message);
      // The database being restarted is an outage to retry, not a fault in the request.
      if (isDatabaseError(error.cause)) {
        log(`database unavailable on ${event.req.method} ${event.url.pathname}`, error.cause);
        return errorResponse(503, "unavailable", "the service's database is briefly unavailable; retry shortly", {
          headers: { "retry-after": "5" },
        });
      }
      // A dist/ file was cut short in place under the bundle: the next load of dist/ replaces it.
      if (error.cause instanceof DistFileError) {
        log(`${event.req.method} ${event.url.pathname}: ${error.cause.message}`);
        return errorResponse(503, "unavailable", "the data being served changed on disk; retry shortly", {
          headers: { "retry-after": "1" },
        });
      }
      log(`unhandled error on ${event.req.method} ${event.url.pathname}`, error.cause ?? error);
      return errorResponse(500, "internal_error", "something went wrong on our side; it has been logged");
    },
  });
  const baseUrl = deps.settings.BASE_URL;
  const routes: Record<string, Methods> = {
    "/api/reviews/search": { GET: defineSearchRoute(deps.bundle) },
    "/api/reviews/since/:date": { GET: defineSinceRoute(deps.bundle) },
    "/search/": { GET: defineSearchPageRoute(deps.bundle, baseUrl) },
    "/.well-known/openapi.json": { GET: defineOpenApiRoute(deps.bundle, baseUrl) },
    "/mcp": defineMcpRoute({ ...deps.mcp, bundle: deps.bundle, baseUrl, version: VERSION }),
    ...(deps.hub && { "/api/websub/hub": defineHubRoute(deps.hub.hub, deps.hub.options) }),
  };
  const patterns = Object.keys(routes);
  app.use((event) => {
    const issues = malformedParts(event.url, patterns);
    if (issues.length) return malformedUrl(issues);
  });
  for (const [path, methods] of Object.entries(routes)) register(app, path, methods);
  register(app, "/**", { GET: defineStaticRoute(deps.bundle, baseUrl) });
  return app;
}

/**
 * A route's methods in h3's router, HEAD answered by the GET handler (without its body); any
 * other method on the path gets the preflight answer (OPTIONS) or 405 with Allow.
 */
function register(app: H3, path: string, methods: Methods): void {
  const allow = [...Object.keys(methods), ...(methods.GET ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const handlers = Object.entries({ ...methods, ...(methods.GET && { HEAD: methods.GET }) }) as [HTTPMethod, Handler][];
  for (const [method, handler] of handlers) {
    app.on(method, path, (event) => handler(event.req as Request, event.url, event.context.params ?? {}, event));
  }
  app.all(path, (event) => (event.req.method === "OPTIONS" ? preflight(event, allow) : methodNotAllowed(event.req.method, allow)));
}
