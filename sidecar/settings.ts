/**
 * The sidecar's settings: the build's (BASE_URL, DATA_DIR, DIST_DIR) plus the server's own,
 * parsed once at start. Handlers get these values; none of them reads process.env.
 */
import { z } from "zod";
import { BuildSettings, parseSettings } from "../core/settings.ts";

const Port = z
  .string()
  .regex(/^\d+$/, { error: "expected a port number from 0 to 65535" })
  .transform(Number)
  .refine((n) => n <= 65535, { error: "expected a port number from 0 to 65535" });

const Bool = z.stringbool({ error: "expected true or false" });

/** A whole number (of seconds, when said), at least `min`, as an environment variable's text. */
const whole = (fallback: number, { seconds = false, min = 0 } = {}) =>
  z
    .string()
    .regex(min > 0 ? /^[1-9]\d*$/ : /^\d+$/, {
      error: `expected a whole number${seconds ? " of seconds" : ""}${min > 0 ? `, at least ${min}` : ""}`,
    })
    .transform(Number)
    .default(fallback);
const Seconds = (fallback: number) => whole(fallback, { seconds: true });
const Count = (fallback: number) => whole(fallback);
/** A time-out or a count of none would cut every request or allow none: at least 1. */
const PositiveSeconds = (fallback: number) => whole(fallback, { seconds: true, min: 1 });
const PositiveCount = (fallback: number) => whole(fallback, { min: 1 });

export const SidecarSettings = BuildSettings.extend({
  PORT: Port.default(3000),
  HOST: z.string().min(1).default("localhost"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "expected a postgres:// or postgresql:// URL" }).optional(),
  /** Folder of the embedded SQLite database and other state, when DATABASE_URL is unset. */
  STATE_DIR: z.string().min(1).default(".state"),
  MCP_SESSION_SECRET: z.string().min(32, { error: "expected at least 32 characters of secret" }).optional(),
  HUB_ALLOW_PRIVATE_CALLBACKS: Bool.default(false),
  HUB_LEASE_MIN_SECONDS: Seconds(60),
  HUB_LEASE_MAX_SECONDS: Seconds(2_592_000),
  HUB_LEASE_DEFAULT_SECONDS: Seconds(864_000),
  HUB_RETRY_BASE_SECONDS: Seconds(30),
  /** How long an instance's claim on a delivery holds before another may take it over. */
  HUB_CLAIM_SECONDS: Seconds(60),
  HUB_MAX_SUBSCRIPTIONS: Count(100_000),
  HUB_MAX_PER_HOST: Count(1_000),
  /** Subscribe and unsubscribe requests waiting for verification, per callback host and in all. */
  HUB_MAX_PENDING_PER_HOST: Count(50),
  HUB_MAX_PENDING: Count(1_000),
  /** A callback's connection: time to connect, time for the whole request, and time without a byte moving. */
  HUB_CONNECT_TIMEOUT_SECONDS: PositiveSeconds(5),
  HUB_DELIVERY_TIMEOUT_SECONDS: PositiveSeconds(15),
  HUB_STALL_SECONDS: PositiveSeconds(5),
  /** Verifications and deliveries in flight at once, per instance; of them, deliveries of a large topic. */
  HUB_CONCURRENCY: PositiveCount(64),
  HUB_LARGE_CONCURRENCY: PositiveCount(32),
  /** Sockets open to all callbacks together. */
  HUB_MAX_SOCKETS: PositiveCount(128),
  /** Ports callbacks may use: a comma-separated list, or "any". */
  HUB_CALLBACK_PORTS: z
    .string()
    .regex(/^(any|\d{1,5}(,\d{1,5})*)$/, { error: 'expected "any" or comma-separated port numbers' })
    .default("443,8443")
    .transform((v): ReadonlySet<number> | "any" => (v === "any" ? "any" : new Set(v.split(",").map(Number)))),
  /** Connections the server holds at once; more are closed as they arrive. */
  MAX_CONNECTIONS: Count(1_024),
  /** Connections one client address holds at once (behind a proxy, raise it: every client is the proxy). */
  MAX_CONNECTIONS_PER_CLIENT: Count(256),
  /** Requests a connection may send ahead without waiting for their answers. */
  MAX_PIPELINED_REQUESTS: Count(16),
  /** A connection whose answers go unread this long is closed. */
  STALLED_WRITE_SECONDS: Seconds(10),
  /** Megabytes of answers waiting to go out, over all connections; past it the connections holding most are closed. */
  MAX_UNREAD_MB: Count(64),
  /** The same, over the connections of one client address. */
  MAX_UNREAD_MB_PER_CLIENT: Count(16),
  /** A request body arriving slower than this on average (after its first 5 s) is cut off. */
  MIN_BODY_BYTES_PER_SECOND: Count(1_024),
  /** Megabytes of search results kept for repeated queries. */
  SEARCH_CACHE_MB: Count(12),
  /** How often the server looks for a new dist/ (a rebuild) and loads it; 0 for never (a publish ping still does). */
  DIST_WATCH_SECONDS: Seconds(1),
  /** MCP sessions ended with DELETE that are remembered at once (until they would expire). */
  MCP_MAX_REVOCATIONS: Count(100_000),
}).check((ctx) => {
  const s = ctx.value;
  if (s.HUB_LEASE_MIN_SECONDS > s.HUB_LEASE_MAX_SECONDS) {
    ctx.issues.push({
      code: "custom",
      path: ["HUB_LEASE_MIN_SECONDS"],
      message: "expected at most HUB_LEASE_MAX_SECONDS",
      input: s.HUB_LEASE_MIN_SECONDS,
    });
  }
});
export type SidecarSettings = z.infer<typeof SidecarSettings>;

export function sidecarSettings(env: Record<string, string | undefined>): SidecarSettings {
  return parseSettings(SidecarSettings, env);
}

/** Every setting at its default: where the modules take their defaults from, so that each is stated once (above). */
export const DEFAULT_SETTINGS: SidecarSettings = sidecarSettings({});

export const MiB = 1024 * 1024;
