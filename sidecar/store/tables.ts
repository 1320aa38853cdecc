/** The hub's tables, as Kysely sees them. Times are milliseconds since the epoch. */
import type { Generated } from "kysely";

/** The host a callback's limits are counted under (callback_host): its name, without the port. */
export function callbackHost(url: URL): string {
  return url.hostname.toLowerCase();
}

export interface Database {
  subscriptions: {
    id: Generated<number>;
    topic: string;
    callback: string;
    callback_host: string;
    secret: string | null;
    lease_seconds: number;
    expires_at: number;
    /** Consecutive failed deliveries; 3 remove the subscription (README, "WebSub"). */
    failures: number;
    created_at: number;
  };
  /** Subscribe and unsubscribe requests waiting for verification of intent (WebSub §5.3). */
  intents: {
    id: Generated<number>;
    mode: "subscribe" | "unsubscribe";
    topic: string;
    callback: string;
    callback_host: string;
    secret: string | null;
    lease_seconds: number;
    created_at: number;
    claimed_until: number | null;
  };
  /** At most one pending notification per subscription, for the topic's latest content. */
  deliveries: {
    id: Generated<number>;
    subscription_id: number;
    topic: string;
    etag: string;
    attempt: number;
    next_attempt_at: number;
    claimed_until: number | null;
  };
  /** The content hash subscribers of each topic were last told about. */
  topics: { topic: string; etag: string };
  /** MCP sessions ended with DELETE, until they would have expired anyway. */
  mcp_revocations: { sid: string; expires_at: number };
}
