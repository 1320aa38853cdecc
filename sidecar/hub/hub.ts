/**
 * The WebSub hub's work: verifying intents (WebSub §5.3) and distributing content (§7). Work is
 * kept in the store and claimed from it, so it survives a restart and is shared between
 * instances; each instance runs at most `concurrency` outbound requests at once, so a slow or
 * dead callback holds one slot, never the others. Verifications may take at most half of the
 * slots: a flood of subscribe requests to slow callbacks cannot hold up notifications.
 */
import { randomBytes } from "node:crypto";
import type { Agent } from "node:https";
import { LARGE_BYTES, type BundleRef } from "../bundle.ts";
import { fileStream, signatureOf } from "../http/streamed.ts";
import type { Delivery, StateStore, Intent } from "../store/store.ts";
import { createAgent, send, type OutboundOptions } from "./outbound.ts";
import { resolveCallback } from "./ssrf.ts";
import { discoveryLinks, TOPICS, topicPath } from "../../core/urls.ts";
import { DEFAULT_SETTINGS, type SidecarSettings } from "../settings.ts";

export interface HubOptions {
  allowPrivateCallbacks: boolean;
  retryBaseMs: number;
  outbound: OutboundOptions;
  /** How long a claim holds before another instance may take the work. */
  claimMs: number;
  /** Outbound requests in flight at most, per instance. */
  concurrency: number;
  /** How often the store is polled for due work (it is also polled right after new work). */
  pollMs: number;
  /**
   * Deliveries of a large topic (reviews.json, insights.json) sent at once; the others wait their
   * turn. Each streams the topic's bytes as its callback reads them, so a callback that does not
   * read holds a socket's buffer and one piece, not the document, until outbound.stallMs ends it.
   */
  largeConcurrency: number;
}

/** The hub's options from the settings; a callback's answer size, idle sockets, DNS and polling are fixed. */
export function hubOptionsOf(s: SidecarSettings): HubOptions {
  return {
    allowPrivateCallbacks: s.HUB_ALLOW_PRIVATE_CALLBACKS,
    retryBaseMs: s.HUB_RETRY_BASE_SECONDS * 1000,
    outbound: {
      connectTimeoutMs: s.HUB_CONNECT_TIMEOUT_SECONDS * 1000,
      totalTimeoutMs: s.HUB_DELIVERY_TIMEOUT_SECONDS * 1000,
      stallMs: s.HUB_STALL_SECONDS * 1000,
      maxResponseBytes: 64 * 1024,
      idleSocketMs: 10_000,
      maxSockets: s.HUB_MAX_SOCKETS,
      dnsTimeoutMs: 5_000,
    },
    claimMs: s.HUB_CLAIM_SECONDS * 1000,
    concurrency: s.HUB_CONCURRENCY,
    pollMs: 1_000,
    largeConcurrency: s.HUB_LARGE_CONCURRENCY,
  };
}

export const DEFAULT_HUB_OPTIONS: HubOptions = hubOptionsOf(DEFAULT_SETTINGS);

export interface PublishResult {
  /** Topic URLs whose content changed, whose subscribers were notified. */
  changed: string[];
  queued: number;
}

export class Hub {
  private readonly agent: Agent;
  private readonly inFlight = { intents: 0, deliveries: 0 };
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly work = new Set<Promise<void>>();
  private readonly large: Slots;

  constructor(
    readonly store: StateStore,
    private readonly bundle: BundleRef,
    private readonly baseUrl: string,
    private readonly options: HubOptions,
    private readonly log: (message: string) => void = (m) => console.error(m),
    private readonly now: () => number = Date.now,
  ) {
    this.agent = createAgent(options.outbound);
    this.large = new Slots(options.largeConcurrency);
  }

  /** Record the topics' current content (without notifying) and start working. */
  async start(): Promise<void> {
    for (const t of TOPICS) {
      const etag = this.bundle.current.files.get(t.path)?.etag;
      if (etag) await this.store.recordTopic(`${this.baseUrl}${t.path}`, etag);
    }
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.kick();
  }

  /** Stop claiming work and wait for what is in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.ticking;
    await Promise.all(this.work);
    this.agent.destroy();
  }

  /** Look for due work now. */
  kick(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch((error) => this.log(`hub: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /**
   * Resolves once nothing is in flight and nothing is due: every intent verified or refused,
   * every due notification sent or rescheduled. What tests (and a graceful stop) can wait for
   * instead of sleeping; retries scheduled for later do not count.
   */
  async settled(): Promise<void> {
    for (;;) {
      await this.ticking;
      await Promise.all(this.work);
      if (this.stopped) return;
      if (this.work.size === 0 && !this.ticking && !(await this.store.hasDueWork(this.now()))) return;
      this.kick();
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** A publish ping: reload dist/, then notify the subscribers of each topic whose content changed. */
  async publish(topicUrls: string[]): Promise<PublishResult> {
    await this.bundle.reloadIfChanged();
    const changed: string[] = [];
    let queued = 0;
    for (const url of new Set(topicUrls)) {
      const path = topicPath(this.baseUrl, url);
      const etag = path && this.bundle.current.files.get(path)?.etag;
      if (!etag) continue;
      const n = await this.store.publish(url, etag, this.now());
      if (n !== null) {
        changed.push(url);
        queued += n;
      }
    }
    this.kick();
    return { changed, queued };
  }

  private async tick(): Promise<void> {
    const now = this.now();
    await this.store.purgeExpired(now);
    const busy = () => this.inFlight.intents + this.inFlight.deliveries;
    const forIntents = Math.min(Math.ceil(this.options.concurrency / 2) - this.inFlight.intents, this.options.concurrency - busy());
    if (forIntents > 0) {
      for (const intent of await this.store.claimIntents(now, forIntents, this.options.claimMs))
        this.run("intents", () => this.verify(intent));
    }
    const forDeliveries = this.options.concurrency - busy();
    if (forDeliveries > 0) {
      for (const delivery of await this.store.claimDeliveries(now, forDeliveries, this.options.claimMs))
        this.run("deliveries", () => this.deliver(delivery));
    }
  }

  private run(kind: "intents" | "deliveries", job: () => Promise<void>): void {
    this.inFlight[kind]++;
    const done: Promise<void> = job()
      .catch((error) => this.log(`hub: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.inFlight[kind]--;
        this.work.delete(done);
        this.kick();
      });
    this.work.add(done);
  }

  /** WebSub §5.3: GET the callback with a fresh challenge; only a 2xx echoing it exactly counts. */
  private async verify(intent: Intent): Promise<void> {
    const challenge = randomBytes(24).toString("base64url");
    const url = new URL(intent.callback);
    // The callback's own query string is kept; the hub's parameters are appended (§5.3).
    url.searchParams.append("hub.mode", intent.mode);
    url.searchParams.append("hub.topic", intent.topic);
    url.searchParams.append("hub.challenge", challenge);
    if (intent.mode === "subscribe") url.searchParams.append("hub.lease_seconds", String(intent.lease_seconds));
    let confirmed = false;
    try {
      const to = await resolveCallback(url, this.options.allowPrivateCallbacks, { timeoutMs: this.options.outbound.dnsTimeoutMs });
      const res = await send(url, to, { method: "GET" }, this.options.outbound, this.agent);
      confirmed = res.status >= 200 && res.status < 300 && !res.truncated && res.body === challenge;
    } catch (error) {
      this.log(`hub: verifying ${intent.mode} of ${intent.callback} failed: ${(error as Error).message}`);
    }
    if (confirmed && intent.mode === "subscribe") await this.store.subscribe(intent, this.now());
    if (confirmed && intent.mode === "unsubscribe") await this.store.unsubscribe(intent.topic, intent.callback);
    await this.store.deleteIntent(intent.id);
  }

  /** WebSub §7: POST the topic's full content, with the discovery links and, given a secret, its HMAC. */
  private async deliver(d: Delivery): Promise<void> {
    const path = topicPath(this.baseUrl, d.topic);
    let file = path && this.bundle.current.files.get(path);
    if (file && file.etag !== d.etag) {
      // Another instance queued content this one has not loaded yet.
      await this.bundle.reloadIfChanged().catch(() => []);
      file = this.bundle.current.files.get(path!);
    }
    if (!file || file.etag !== d.etag) {
      await this.store.release(d, this.now() + 5_000);
      return;
    }
    const topic = TOPICS.find((t) => t.path === path)!;
    const headers: Record<string, string> = {
      "content-type": topic.contentType,
      link: discoveryLinks(this.baseUrl, d.topic),
    };
    const topicFile = file;
    const release = file.size >= LARGE_BYTES ? await this.large.take() : () => {};
    let ok = false;
    try {
      const url = new URL(d.callback);
      const to = await resolveCallback(url, this.options.allowPrivateCallbacks, { timeoutMs: this.options.outbound.dnsTimeoutMs });
      if (d.secret) headers["x-hub-signature"] = await signatureOf(topicFile, d.secret);
      const body = { length: topicFile.size, open: () => fileStream(topicFile) };
      const res = await send(url, to, { method: "POST", headers, body }, this.options.outbound, this.agent);
      ok = res.status >= 200 && res.status < 300;
    } catch {
      ok = false;
    } finally {
      release();
    }
    if (ok) await this.store.delivered(d);
    else if (await this.store.failed(d, this.now(), this.options.retryBaseMs)) {
      this.log(`hub: removed the subscription of ${d.callback} to ${d.topic} after 3 failed deliveries`);
    }
  }
}

/** At most `size` holders at once; the others wait in turn. */
class Slots {
  private held = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}

  /** Wait for a slot; resolves with the function that gives it back. */
  async take(): Promise<() => void> {
    if (this.held >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    };
  }
}
