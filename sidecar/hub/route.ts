/**
 * `POST /api/websub/hub`: subscribe and unsubscribe (WebSub §5.1; 202, then verification of
 * intent), and the publish ping (`hub.mode=publish` with `hub.url` or `hub.topic`, repeatable).
 * Parameters the hub does not know are ignored, as WebSub asks.
 */
import { FastResponse } from "srvx";
import type { Methods } from "../http/handler.ts";
import { BundleError } from "../bundle.ts";
import { CLOSE_CONNECTION, readBody } from "../http/body.ts";
import { CORS_HEADERS } from "../http/cors.ts";
import { errorResponse, invalidParameters, type Issue } from "../http/errors.ts";
import { fromZod } from "../http/query.ts";
import { HubForm } from "../../core/api/params.ts";
import { callbackHost } from "../store/tables.ts";
import { admitIntent, type AdmissionLimits } from "./admission.ts";
import type { Hub } from "./hub.ts";
import { CallbackRefused, resolveCallback } from "./ssrf.ts";
import { topicPath, TOPICS } from "../../core/urls.ts";
import type { SidecarSettings } from "../settings.ts";

export interface HubRouteOptions {
  baseUrl: string;
  allowPrivateCallbacks: boolean;
  lease: { min: number; max: number; default: number };
  limits: AdmissionLimits;
  /** Ports a callback may use; "any" for all (tests, development). */
  callbackPorts: ReadonlySet<number> | "any";
}

/** Fields that may appear more than once: the topics of a publish ping. */
const REPEATABLE = new Set(["hub.url", "hub.topic"]);

/** Form bodies are small: a callback, a topic, a secret. */
const BODY_LIMIT = 16 * 1024;

/** The hub route's options from the settings. */
export function hubRouteOptionsOf(s: SidecarSettings): HubRouteOptions {
  return {
    baseUrl: s.BASE_URL,
    allowPrivateCallbacks: s.HUB_ALLOW_PRIVATE_CALLBACKS,
    lease: { min: s.HUB_LEASE_MIN_SECONDS, max: s.HUB_LEASE_MAX_SECONDS, default: s.HUB_LEASE_DEFAULT_SECONDS },
    limits: {
      perHost: s.HUB_MAX_PER_HOST,
      total: s.HUB_MAX_SUBSCRIPTIONS,
      pendingPerHost: s.HUB_MAX_PENDING_PER_HOST,
      pendingTotal: s.HUB_MAX_PENDING,
    },
    callbackPorts: s.HUB_CALLBACK_PORTS,
  };
}

export function defineHubRoute(hub: Hub, options: HubRouteOptions): Methods {
  return {
    POST: async (request) => {
      const type = request.headers.get("content-type") ?? "";
      if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
        return errorResponse(415, "unsupported_media_type", "send the hub's parameters form-encoded (application/x-www-form-urlencoded)");
      }
      const read = await readBody(request, BODY_LIMIT);
      if (!read.ok) {
        if (read.reason === "aborted") return errorResponse(400, "bad_request", "the request body was cut off");
        return errorResponse(413, "payload_too_large", `the body is over ${BODY_LIMIT} bytes`, { headers: CLOSE_CONNECTION });
      }
      const form = new URLSearchParams(read.text);
      const repeated = repeatedFields(form);
      if (repeated.length) return invalidParameters(repeated);
      const fields = fromZod(HubForm.safeParse(Object.fromEntries(form)));
      if (!fields.ok) return invalidParameters(fields.issues);
      const mode = fields.value["hub.mode"];
      return mode === "publish" ? publish(hub, options, form) : subscription(hub, options, form, mode);
    },
  };
}

async function subscription(
  hub: Hub,
  options: HubRouteOptions,
  form: URLSearchParams,
  mode: "subscribe" | "unsubscribe",
): Promise<Response> {
  const issues: Issue[] = [];
  const topic = form.get("hub.topic");
  if (!topic) issues.push({ path: ["hub.topic"], code: "invalid_type", message: "required" });
  else if (!topicPath(options.baseUrl, topic)) {
    issues.push({
      path: ["hub.topic"],
      code: "invalid_value",
      message: `expected one of: ${TOPICS.map((t) => `${options.baseUrl}${t.path}`).join(", ")}`,
    });
  }
  const callbackText = form.get("hub.callback");
  let callback: URL | undefined;
  if (!callbackText) issues.push({ path: ["hub.callback"], code: "invalid_type", message: "required" });
  else if (!URL.canParse(callbackText))
    issues.push({ path: ["hub.callback"], code: "invalid_format", message: "expected an absolute https:// URL" });
  else {
    callback = new URL(callbackText);
    if (callback.protocol !== "https:")
      issues.push({
        path: ["hub.callback"],
        code: "invalid_format",
        message: "expected an https:// URL: notifications are only sent over TLS",
      });
    else if (callback.hash || callback.username || callback.password)
      issues.push({ path: ["hub.callback"], code: "invalid_format", message: "expected a URL without credentials or fragment" });
    else if (options.callbackPorts !== "any" && !options.callbackPorts.has(Number(callback.port || 443))) {
      // A hub that GETs any port of any public host is a port scanner for hire.
      issues.push({ path: ["hub.callback"], code: "invalid_value", message: `expected port ${[...options.callbackPorts].join(" or ")}` });
    }
  }
  // HubForm checked hub.lease_seconds and hub.secret already.
  const leaseText = form.get("hub.lease_seconds");
  const secret = form.get("hub.secret");
  if (issues.length || !callback || !topic) return invalidParameters(issues);

  try {
    await resolveCallback(callback, options.allowPrivateCallbacks);
  } catch (error) {
    if (error instanceof CallbackRefused)
      return invalidParameters([{ path: ["hub.callback"], code: "invalid_value", message: error.message }]);
    throw error;
  }
  const requested = leaseText === null ? options.lease.default : Number(leaseText);
  const lease = Math.min(options.lease.max, Math.max(options.lease.min, requested));
  const intent = { mode, topic, callback: callback.href, callback_host: callbackHost(callback), secret, lease_seconds: lease };
  const admitted = await admitIntent(hub.store, intent, options.limits, Date.now());
  if (!admitted.ok) return errorResponse(admitted.status, admitted.error, admitted.message);
  hub.kick();
  return json(202, { status: "accepted", message: `verification of intent will be sent to the callback (hub.lease_seconds=${lease})` });
}

async function publish(hub: Hub, options: HubRouteOptions, form: URLSearchParams): Promise<Response> {
  const urls = [...form.getAll("hub.url"), ...form.getAll("hub.topic")];
  if (urls.length === 0)
    return invalidParameters([{ path: ["hub.url"], code: "invalid_type", message: "required: the topic URL that changed (repeatable)" }]);
  const unknown = urls.filter((u) => !topicPath(options.baseUrl, u));
  if (unknown.length)
    return invalidParameters(
      unknown.map((u) => ({ path: ["hub.url"], code: "invalid_value", message: `${u} is not a topic of this hub` })),
    );
  try {
    const result = await hub.publish(urls);
    return json(202, { status: "accepted", changed: result.changed, notifications: result.queued });
  } catch (error) {
    if (error instanceof BundleError)
      return errorResponse(422, "bundle_refused", `the new build was refused and the previous one is still served: ${error.message}`);
    throw error;
  }
}

/** A field given twice is ambiguous (zod would check one value and the code use another). */
function repeatedFields(form: URLSearchParams): Issue[] {
  const publish = form.get("hub.mode") === "publish";
  return [...new Set(form.keys())]
    .filter((key) => form.getAll(key).length > 1 && !(publish && REPEATABLE.has(key)))
    .map((key) => ({ path: [key], code: "invalid_type", message: "expected a single value, got the field more than once" }));
}

function json(status: number, body: unknown): Response {
  return new FastResponse(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...CORS_HEADERS } });
}
