/**
 * Limits on the listening server itself: a client that trickles its headers (slow loris) is cut
 * off, a whole request must arrive in time, and an idle keep-alive connection does not hold a
 * socket for long.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";

export interface ServerLimits {
  /** Time for a request's headers to arrive, from the connection or the previous response. */
  headersTimeoutMs: number;
  /** Time to receive a whole request. */
  requestTimeoutMs: number;
  /** Idle time on a kept-alive connection between requests. */
  keepAliveTimeoutMs: number;
}

export const SERVER_LIMITS: ServerLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 };

export function limitServer(server: Server, limits: ServerLimits = SERVER_LIMITS): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxHeadersCount = 100;
  // Node enforces headersTimeout only on a 30 s sweep (its connectionsCheckingInterval, which
  // listhen's server keeps at the default): a timer per connection cuts a slow loris on time.
  const timers = new WeakMap<Socket, NodeJS.Timeout>();
  const arm = (socket: Socket) => {
    clearTimeout(timers.get(socket));
    timers.set(socket, setTimeout(() => socket.destroy(), limits.headersTimeoutMs).unref());
  };
  server.on("connection", (socket: Socket) => {
    arm(socket);
    socket.once("close", () => clearTimeout(timers.get(socket)));
  });
  server.prependListener("request", (req, res) => {
    clearTimeout(timers.get(req.socket));
    res.once("finish", () => !req.socket.destroyed && arm(req.socket));
  });
}
