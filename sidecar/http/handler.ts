/**
 * What a route is, as app.ts registers it in h3's router: a handler per method. Routes import
 * this, not app.ts, so that the app and its routes do not import each other.
 */
import type { H3Event } from "h3";

export type Handler = (request: Request, url: URL, params: Record<string, string>, event: H3Event) => Response | Promise<Response>;
export type Methods = Partial<Record<"GET" | "POST" | "DELETE", Handler>>;
