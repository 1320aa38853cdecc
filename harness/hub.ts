/** A sidecar with its WebSub hub, on a small data folder that tests can change and rebuild. */
import { join } from "node:path";
import Database from "libsql";
import { createApp } from "../sidecar/app.ts";
import { BundleRef, loadBundle } from "../sidecar/bundle.ts";
import { DEFAULT_HUB_OPTIONS, Hub, type HubOptions } from "../sidecar/hub/hub.ts";
import type { HubRouteOptions } from "../sidecar/hub/route.ts";
import { openSqlite } from "../sidecar/store/sqlite.ts";
import type { StateStore } from "../sidecar/store/store.ts";
import { editReview, review, smallData, tempDir } from "./data.ts";
import { buildHere } from "./build.ts";
import { BASE_URL, testMcp } from "./sidecar.ts";
import { testCerts } from "./subscriber.ts";

export const TOPIC = { atom: `${BASE_URL}/feed.xml`, json: `${BASE_URL}/api/feed.json`, reviews: `${BASE_URL}/reviews.json` };

/** Limits high enough that only the tests about limits meet them. */
export const TEST_LIMITS = { perHost: 1_000, total: 10_000, pendingPerHost: 1_000, pendingTotal: 10_000 };

export interface HubHarness {
  app: ReturnType<typeof createApp>;
  hub: Hub;
  store: StateStore;
  bundle: BundleRef;
  data: string;
  dist: string;
  /** Change the newest review's text and rebuild dist/ (every topic changes). */
  changeData: (text: string) => Promise<void>;
  subscribe: (form: Record<string, string>) => Promise<Response>;
  post: (form: URLSearchParams | Record<string, string>) => Promise<Response>;
  /** Move the hub's clock forward (it otherwise follows the real one): leases, retries. */
  advance: (ms: number) => void;
  /** What the app logged (outages, bugs), also printed. */
  logged: string[];
  close: () => Promise<void>;
}

export async function startHub(
  options: Partial<HubOptions> = {},
  route: Partial<HubRouteOptions> = {},
  store?: StateStore,
  shared?: { data: string; dist: string },
): Promise<HubHarness> {
  const { ca } = await testCerts();
  let data = shared?.data;
  let dist = shared?.dist;
  if (!data || !dist) {
    data = await smallData([review({ id: "r-1", date: "2025-03-01" }), review({ id: "r-2", date: "2025-03-02", text: "Mice gone." })]);
    dist = join(await tempDir(), "dist");
    await buildHere(data, dist, { BASE_URL });
  }
  const bundle = new BundleRef(await loadBundle(dist), dist, { baseUrl: BASE_URL });
  let offset = 0;
  store ??= await openSqlite(join(await tempDir(), "hub.db"));
  const hub = new Hub(
    store,
    bundle,
    BASE_URL,
    {
      ...DEFAULT_HUB_OPTIONS,
      outbound: { ...DEFAULT_HUB_OPTIONS.outbound, connectTimeoutMs: 2_000, totalTimeoutMs: 2_000, ca: [ca] },
      allowPrivateCallbacks: true,
      retryBaseMs: 100,
      pollMs: 50,
      claimMs: 5_000,
      ...options,
    },
    () => {},
    () => Date.now() + offset,
  );
  const hubOptions: HubRouteOptions = {
    baseUrl: BASE_URL,
    allowPrivateCallbacks: true,
    lease: { min: 1, max: 2_592_000, default: 864_000 },
    limits: TEST_LIMITS,
    callbackPorts: "any",
    ...route,
  };
  const logged: string[] = [];
  const log = (message: string, error?: unknown) => {
    logged.push(message);
    console.error(message, error);
  };
  const app = createApp({ bundle, settings: { BASE_URL }, mcp: testMcp(), hub: { hub, options: hubOptions }, log });
  await hub.start();
  const post = async (form: URLSearchParams | Record<string, string>) =>
    app.request("/api/websub/hub", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form as Record<string, string>).toString(),
    });
  return {
    app,
    hub,
    store,
    bundle,
    data,
    dist,
    logged,
    advance: (ms) => {
      offset += ms;
    },
    post,
    subscribe: (form) => post({ "hub.mode": "subscribe", "hub.topic": TOPIC.atom, ...form }),
    changeData: async (text) => {
      await editReview(join(data!, "reviews/2025.jsonl"), "r-2", (r) => ({ ...r, text }));
      await buildHere(data!, dist!, { BASE_URL });
    },
    close: async () => {
      await hub.stop();
      await store!.close();
    },
  };
}

/**
 * Verified subscriptions in a sidecar process's SQLite file (STATE_DIR/hub.db), read beside the
 * running process (WAL): what a test waits for instead of sleeping. 0 while the file is not there.
 */
export async function subscriptionsIn(file: string): Promise<number> {
  let db: InstanceType<typeof Database> | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true } as never);
    return Number((db.prepare("select count(*) as n from subscriptions").get() as { n: number }).n);
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}
