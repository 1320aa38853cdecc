/**
 * What a route is, as app.ts registers it in h3's router: a handler per method. Routes import
 * this, not app.ts, so that the app and its routes do not import each other.
 */
import type { H3Event, HTTPResponse } from "h3";

type Answer = Response | HTTPResponse;
export type Handler = (request: Request, url: URL, params: Record<string, string>, event: H3Event) => Answer | Promise<Answer>;
export type Methods = Partial<Record<"GET" | "POST" | "DELETE", Handler>>;
