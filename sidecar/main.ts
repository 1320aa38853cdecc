/**
 * `npm run serve`: load the built bundle and serve it, with the dynamic routes, on one port.
 * Fails fast, naming the cause: bad settings, no dist/, or a port already taken.
 */
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import { toNodeHandler } from "h3";
import { listen } from "listhen";
import { SettingsError } from "../core/settings.ts";
import { createApp } from "./app.ts";
import { BundleError, BundleRef, loadBundle } from "./bundle.ts";
import { allowedFor } from "./mcp/route.ts";
import { Hub, hubOptionsOf } from "./hub/hub.ts";
import { hubRouteOptionsOf } from "./hub/route.ts";
import { backpressured, collectWhenQuiet, limitServer, serverLimitsOf } from "./http/server.ts";
import { SessionSigner } from "./mcp/session.ts";
import { MiB, sidecarSettings } from "./settings.ts";
import { openState, StateError } from "./state.ts";
import { watchDist } from "./watch.ts";
import { TOPICS } from "../core/urls.ts";

try {
  const settings = sidecarSettings(process.env);
  const started = performance.now();
  const bundleOptions = { searchCacheBytes: settings.SEARCH_CACHE_MB * MiB, baseUrl: settings.BASE_URL };
  const bundle = new BundleRef(await loadBundle(settings.DIST_DIR, bundleOptions), settings.DIST_DIR, bundleOptions);
  const secret = settings.MCP_SESSION_SECRET ?? randomBytes(32).toString("base64url");
  if (!settings.MCP_SESSION_SECRET) {
    console.warn(
      "reviewcast: MCP_SESSION_SECRET is unset, so MCP sessions are signed with a random key and " +
        "end when this process does; set it (the same on every instance) to keep them.",
    );
  }
  const allowed = allowedFor(settings.BASE_URL, settings.HOST, settings.PORT);
  const store = await openState(settings);
  const mcp = { signer: new SessionSigner(secret), revocations: store, maxRevocations: settings.MCP_MAX_REVOCATIONS, ...allowed };
  const hub = new Hub(store, bundle, settings.BASE_URL, hubOptionsOf(settings));
  const app = createApp({ bundle, settings, mcp, hub: { hub, options: hubRouteOptionsOf(settings) } });
  const anyHost = ["0.0.0.0", "::", "[::]"].includes(settings.HOST);
  const listener = await listen(backpressured(toNodeHandler(app)), {
    hostname: settings.HOST,
    public: anyHost,
    // listhen would quietly pick another port when this one is taken: a server answering on a
    // port nobody asked for is a bug, so only PORT=0 (any free port) may choose.
    port:
      settings.PORT === 0
        ? { random: true }
        : {
            port: settings.PORT,
            ports: [],
            portRange: [] as unknown as [number, number],
            alternativePortRange: [] as unknown as [number, number],
            random: false,
          },
    showURL: false,
    qr: false,
    open: false,
    clipboard: false,
    // listhen would exit at once on SIGTERM; the graceful stop below does it after in-flight work.
    autoClose: false,
  });
  limitServer(listener.server as Server, serverLimitsOf(settings));
  collectWhenQuiet(listener.server as Server);
  const address = listener.server.address();
  const port = typeof address === "object" && address ? address.port : settings.PORT;
  if (port !== settings.PORT) {
    // PORT=0: the loopback names with the port actually chosen are this server's own too.
    const chosen = allowedFor(settings.BASE_URL, settings.HOST, port);
    for (const o of chosen.allowedOrigins) allowed.allowedOrigins.add(o);
    for (const h of chosen.allowedHosts ?? []) allowed.allowedHosts?.add(h);
  }
  await hub.start();
  // A rebuild is served as soon as it is there, and its subscribers told, as after a publish ping.
  const unwatch =
    settings.DIST_WATCH_SECONDS > 0
      ? watchDist(settings.DIST_DIR, settings.DIST_WATCH_SECONDS * 1000, async () => {
          try {
            const { changed } = await hub.publish(TOPICS.map((t) => `${settings.BASE_URL}${t.path}`));
            console.log(
              `reviewcast: ${settings.DIST_DIR}/ changed: serving ${bundle.current.index.size} reviews` +
                `${changed.length ? `; notifying the subscribers of ${changed.length} changed topics` : ""}`,
            );
          } catch (error) {
            console.error(
              `reviewcast: ${settings.DIST_DIR}/ changed but was not loaded, still serving the previous one: ${(error as Error).message}`,
            );
          }
        })
      : () => {};
  // Graceful stop: no new connections, in-flight requests and claimed deliveries finish, then the
  // database closes. A stop that hangs past the deadline is cut short.
  // A signal while stopping is the same request again (a terminal's Ctrl-C reaches the whole
  // process group, and npm or scripts/start.mjs pass it on too): it must not cut the stop short.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`reviewcast: ${signal}: finishing in-flight work`);
    setTimeout(() => {
      console.error("reviewcast: in-flight work did not finish in 30 s; exiting");
      process.exit(1);
    }, 30_000).unref();
    unwatch();
    await listener.close();
    await hub.stop();
    await store.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  // Said last: from this line on, a signal stops the server gracefully (scripts/start.mjs's Ctrl-C).
  const ms = Math.round(performance.now() - started);
  console.log(
    `reviewcast: serving ${bundle.current.index.size} reviews on http://${settings.HOST}:${port} ` +
      `(public base ${settings.BASE_URL}), ready in ${ms} ms`,
  );
} catch (error) {
  if (error instanceof SettingsError || error instanceof BundleError || error instanceof StateError)
    console.error(`reviewcast: ${error.message}`);
  else if (/Unable to find an available port|EADDRINUSE/.test(String((error as Error)?.message))) {
    console.error(`reviewcast: port ${process.env.PORT ?? 3000} is already in use; stop the other server or set PORT`);
  } else console.error("reviewcast: could not start:", error);
  process.exit(1);
}
