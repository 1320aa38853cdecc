/**
 * Limits on the listening server itself. Node does what its settings can: `headersTimeout`,
 * `requestTimeout`, `keepAliveTimeout`, `maxHeadersCount` and its `maxHeaderSize` (431, answered
 * by client-error.ts). The rest is here, each piece for an abuse a test holds: Node checks its
 * time-outs only on a 30 s sweep, its `maxConnections` refuses the newcomer instead of making room,
 * and it parses a pipelined batch at once and runs every handler, unread answers or not.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { answerClientErrors } from "./client-error.ts";
import { type ConnectionLimits, Connections } from "./connections.ts";
import { Turns } from "./turns.ts";
import { collect } from "../../core/collect.ts";
import { DEFAULT_SETTINGS, MiB, type SidecarSettings } from "../settings.ts";

export interface ServerLimits extends ConnectionLimits {
  /** Time for a request's headers to arrive, from the connection or the previous response. */
  headersTimeoutMs: number;
  /** Time to receive a whole request. */
  requestTimeoutMs: number;
  /** Idle time on a kept-alive connection between requests. */
  keepAliveTimeoutMs: number;
  /**
   * Connections held at once (MAX_CONNECTIONS). At the cap a new connection sheds one of the
   * client address holding the most: the one furthest behind (most unread answer bytes, then
   * waiting longest), so that a newcomer from another address is answered.
   */
  maxConnections: number;
  /** Connections one client address holds at once (MAX_CONNECTIONS_PER_CLIENT); at it, its own furthest behind is shed. */
  maxConnectionsPerClient: number;
  /** Requests a connection may have waiting for their answers (MAX_PIPELINED_REQUESTS); past it, it is closed. */
  maxPipelined: number;
  /** A connection whose answers go unread this long is closed (STALLED_WRITE_SECONDS). */
  stalledWriteMs: number;
}

/** The server's limits from the settings; the time-outs of headers, requests and idle connections are fixed. */
export function serverLimitsOf(s: SidecarSettings): ServerLimits {
  return {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    maxConnections: s.MAX_CONNECTIONS,
    maxConnectionsPerClient: s.MAX_CONNECTIONS_PER_CLIENT,
    maxPipelined: s.MAX_PIPELINED_REQUESTS,
    stalledWriteMs: s.STALLED_WRITE_SECONDS * 1000,
    maxUnreadBytes: s.MAX_UNREAD_MB * MiB,
    maxUnreadBytesPerClient: s.MAX_UNREAD_MB_PER_CLIENT * MiB,
    minBodyBytesPerSecond: s.MIN_BODY_BYTES_PER_SECOND,
  };
}

export const SERVER_LIMITS: ServerLimits = serverLimitsOf(DEFAULT_SETTINGS);

/**
 * The request handler, run only once the connection has taken the previous answer: a client that
 * pipelines requests and reads none of the answers has one answer made for it, not sixty (Node
 * parses a pipelined batch at once and would run every handler, holding every answer in memory
 * until it can be sent in turn; tests/abuse/connections.test.ts). limitServer closes such a
 * connection once its answers stop moving. Handlers take turns by client address (turns.ts), and
 * one whose connection was closed meanwhile (past MAX_PIPELINED_REQUESTS, say) does not run.
 */
export function backpressured(handler: RequestListener): RequestListener {
  const turns = new Turns();
  /** Each connection's latest response: the next request waits until it is sent. */
  const latest = new WeakMap<Socket, ServerResponse>();
  /**
   * The requests waiting on each connection, woken by one pair of listeners on its socket (a pair
   * per waiting request made Node warn of a listener leak at eleven, in the log, at will).
   */
  const waiting = new WeakMap<Socket, Set<() => void>>();
  const wait = (socket: Socket, go: () => void) => {
    let set = waiting.get(socket);
    if (!set) {
      const woken = (set = new Set());
      waiting.set(socket, woken);
      const wake = () => woken.forEach((g) => g());
      socket.on("drain", wake).on("close", wake);
    }
    set.add(go);
  };
  return (req, res) => {
    const socket = req.socket;
    const client = socket.remoteAddress ?? "";
    const run = () => !socket.destroyed && (handler(req, res), true);
    const previous = latest.get(socket);
    latest.set(socket, res);
    const sent = () => !previous || previous.writableFinished || previous.destroyed;
    if (sent() && !socket.writableNeedDrain) return turns.take(client, run);
    const go = () => {
      if (socket.destroyed) return void stop();
      if (!sent() || socket.writableNeedDrain) return;
      stop();
      turns.take(client, run);
    };
    const stop = () => {
      previous?.off("finish", go).off("close", go);
      waiting.get(socket)?.delete(go);
    };
    previous?.on("finish", go).on("close", go);
    wait(socket, go);
  };
}

export function limitServer(server: Server, limits: ServerLimits = SERVER_LIMITS): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxHeadersCount = 100;
  answerClientErrors(server);
  const connections = new Connections(limits);
  // Node checks headersTimeout and requestTimeout on a sweep every connectionsCheckingInterval, an
  // option of its constructor that listhen does not pass (30 s), so they are also timed here:
  // per connection for headers (tests/faults/server.test.ts, slow loris), per request for a body (the same, a trickled body).
  const timers = new WeakMap<Socket, NodeJS.Timeout>();
  /** Each connection's request in progress (or its last one). */
  const requests = new WeakMap<Socket, IncomingMessage>();
  const arm = (socket: Socket) => {
    clearTimeout(timers.get(socket));
    timers.set(socket, setTimeout(() => socket.destroy(), limits.headersTimeoutMs).unref());
  };
  server.on("connection", (socket: Socket) => {
    // Room made at the caps from whoever holds the most (tests/abuse/lockout.test.ts, tests/abuse/connections.test.ts).
    if (!connections.admit(socket)) return;
    arm(socket);
    socket.once("close", () => clearTimeout(timers.get(socket)));
    // A 413 read to its end before the close (tests/abuse/bodies.test.ts); once per connection, not per request.
    lingerOnClose(socket, () => requests.get(socket)?.complete ?? true);
  });
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    // The socket as it is now: a response with Connection: close detaches it (req.socket is then
    // null), which crashed the process when a refused body was answered 413.
    const socket = req.socket;
    requests.set(socket, req);
    clearTimeout(timers.get(socket));
    // Pipelining past MAX_PIPELINED_REQUESTS (tests/abuse/connections.test.ts); Node's maxRequestsPerSocket counts a whole life.
    if (connections.started(socket) > limits.maxPipelined) return void socket.destroy();
    // Unread answers bounded in all and per address (tests/abuse/unread.test.ts).
    connections.requestedUnreadCheck();
    // A body is timed only when the headers announce one (RFC 9112 §6.3: a length or chunked); `complete` is
    // false here for bodiless requests too. Cut at requestTimeout, or below MIN_BODY_BYTES_PER_SECOND
    // (tests/abuse/unread.test.ts and tests/abuse/lockout.test.ts, trickled bodies).
    if (announcesBody(req)) {
      const body = setTimeout(() => !req.complete && socket.destroy(), limits.requestTimeoutMs).unref();
      connections.bodyStarted(socket, () => req.complete);
      const done = () => {
        clearTimeout(body);
        connections.bodyDone(socket);
      };
      req.once("end", done);
      res.once("close", done);
    }
    res.once("close", () => connections.finished(socket));
    res.once("finish", () => !socket.destroyed && arm(socket));
  });
}

/** Whether a request's headers say a body follows: a Content-Length above 0, or a Transfer-Encoding (chunked). */
function announcesBody(req: IncomingMessage): boolean {
  return !req.complete && (Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined);
}

/** How long, and how much more of a refused body, a closing connection still reads. */
export const LINGER = { ms: 1_000, bytes: 4 * 1024 * 1024 };

/**
 * A lingering close, as Apache and nginx do it. A body refused before it was all read (413) is
 * answered with Connection: close; closing a socket whose client is still sending makes the
 * kernel send a reset, and a reset that arrives before the client has read the answer wipes the
 * answer from its buffer: the client sees "connection reset", not 413. So the answer and a FIN
 * go out first, and what the client still sends is read and dropped, up to LINGER, before the
 * socket is destroyed.
 */
function lingerOnClose(socket: Socket, complete: () => boolean): void {
  const destroySoon = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    if (complete() || socket.destroyed) return destroySoon();
    socket.end();
    let read = 0;
    const stop = () => socket.destroy();
    const timer = setTimeout(stop, LINGER.ms).unref();
    socket.on("data", (chunk: Buffer) => (read += chunk.length) > LINGER.bytes && stop());
    socket.once("close", () => clearTimeout(timer));
  };
}

/**
 * Memory back after a burst, without waiting for the next request: V8 collects only when it
 * allocates, so a burst's garbage (and the RSS under it) stayed until traffic came again. Once
 * requests and their answers have stopped for `quietMs`, one full collection runs; freed memory then goes back to
 * the system (glibc's thresholds are set by `npm run serve`).
 */
export function collectWhenQuiet(server: Server, quietMs = 1_000): void {
  let last = 0;
  let since = 0;
  const busy = () => {
    last = Date.now();
    since++;
  };
  // Quiet counts from the last answer's end too: a burst's answers may still be made and sent
  // well after its last request came in.
  server.on("request", (_request, response) => {
    busy();
    response.once("close", busy);
  });
  setInterval(() => {
    if (since === 0 || Date.now() - last < quietMs) return;
    since = 0;
    collect();
  }, quietMs).unref();
}
