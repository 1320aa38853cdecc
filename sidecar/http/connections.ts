/**
 * The connections a server holds, by client address: what server.ts sheds at its caps, and where
 * it looks for answers nobody reads and bodies that barely move. Node's own `maxConnections` only
 * refuses the newcomer, which is how an attacker holding the connections locks everyone else out;
 * here, at a cap, room is made by closing a connection of whoever holds the most.
 */
import type { Socket } from "node:net";

/** What the connections are held to (server.ts's ServerLimits documents each). */
export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerClient: number;
  stalledWriteMs: number;
  /** Bytes of answers waiting to go out, over all connections; past it the ones holding most are closed. */
  maxUnreadBytes: number;
  /** The same, over the connections of one client address. */
  maxUnreadBytesPerClient: number;
  /** A request body arriving slower than this (bytes per second, on average, after BODY_GRACE_MS) is cut off. */
  minBodyBytesPerSecond: number;
}

/** Time a body is given before its rate is judged: a first packet may be slow to come. */
export const BODY_GRACE_MS = 5_000;

interface Held {
  client: string;
  /** Requests begun and not yet answered. */
  pending: number;
  /** Since when the connection has waited: its oldest unanswered request began, or it went idle (or opened). */
  since: number;
}

/** The open connections, by client address. */
export class Connections {
  private readonly open = new Map<Socket, Held>();
  private readonly byClient = new Map<string, Set<Socket>>();
  /** Connections with answers waiting to go out: how much was written, and since when no more. */
  private readonly writing = new Map<Socket, { written: number; since: number }>();
  /** Connections receiving a request's body: bytes read when it began, and when. */
  private readonly receiving = new Map<Socket, { read: number; since: number; complete: () => boolean }>();

  constructor(private readonly limits: ConnectionLimits) {
    // An answer the client does not read stays in the socket's buffer, and its response never
    // finishes: no per-response event tells, so one sweep looks at every connection's progress.
    setInterval(() => this.sweep(), Math.min(1_000, limits.stalledWriteMs / 2)).unref();
  }

  /**
   * Take a new connection. At a cap, room is made first: at MAX_CONNECTIONS_PER_CLIENT among the
   * newcomer's own address, at MAX_CONNECTIONS among the address holding the most connections,
   * closing there the one furthest behind. False when there was nothing to close (a cap of 0).
   */
  admit(socket: Socket): boolean {
    const client = socket.remoteAddress ?? "";
    const mine = this.byClient.get(client) ?? new Set<Socket>();
    const refused =
      (mine.size >= this.limits.maxConnectionsPerClient && !this.shed(mine)) ||
      (this.open.size >= this.limits.maxConnections && !this.shed(this.largest()));
    if (refused) {
      socket.destroy();
      return false;
    }
    this.open.set(socket, { client, pending: 0, since: Date.now() });
    mine.add(socket);
    this.byClient.set(client, mine);
    socket.once("close", () => this.forget(socket));
    return true;
  }

  /** A request began on `socket`: how many there now wait for their answers. */
  started(socket: Socket): number {
    const held = this.open.get(socket);
    if (!held) return 0;
    if (held.pending === 0) held.since = Date.now();
    return ++held.pending;
  }

  finished(socket: Socket): void {
    const held = this.open.get(socket);
    if (!held || held.pending === 0) return;
    if (--held.pending === 0) held.since = Date.now();
  }

  /** A request's body began to arrive on `socket`: it is judged by the floor rate until it is complete (or bodyDone). */
  bodyStarted(socket: Socket, complete: () => boolean): void {
    if (this.open.has(socket)) this.receiving.set(socket, { read: socket.bytesRead, since: Date.now(), complete });
  }

  bodyDone(socket: Socket): void {
    this.receiving.delete(socket);
  }

  /** When boundUnread last looked, from a request. */
  private looked = 0;

  /** boundUnread, from a new request: at most every 50 ms, so that a busy server does not walk every connection per request. */
  requestedUnreadCheck(): void {
    const now = Date.now();
    if (now - this.looked < 50) return;
    this.looked = now;
    this.boundUnread();
  }

  /**
   * Unsent answers past the bounds (in all, and per client address): close the connections that
   * hold the most until the rest are within them. Run on the sweep, and from new requests.
   */
  boundUnread(): void {
    let total = 0;
    const held: [Socket, number][] = [];
    const byClient = new Map<string, number>();
    for (const [socket, entry] of this.open) {
      const bytes = socket.writableLength;
      if (bytes === 0) continue;
      total += bytes;
      held.push([socket, bytes]);
      byClient.set(entry.client, (byClient.get(entry.client) ?? 0) + bytes);
    }
    const perClientOver = [...byClient.values()].some((b) => b > this.limits.maxUnreadBytesPerClient);
    if (total <= this.limits.maxUnreadBytes && !perClientOver) return;
    held.sort((a, b) => b[1] - a[1]);
    for (const [socket, bytes] of held) {
      const client = this.open.get(socket)!.client;
      const mine = byClient.get(client)!;
      if (total <= this.limits.maxUnreadBytes && mine <= this.limits.maxUnreadBytesPerClient) continue;
      this.close(socket);
      total -= bytes;
      byClient.set(client, mine - bytes);
    }
  }

  /**
   * Close the connections whose unsent answers have not moved for stalledWriteMs, whose bodies
   * arrive slower than the floor, and those holding the most unsent bytes while the bounds are
   * passed.
   */
  private sweep(): void {
    const now = Date.now();
    for (const [socket, body] of this.receiving) {
      if (body.complete()) {
        this.receiving.delete(socket);
        continue;
      }
      const elapsed = now - body.since;
      if (elapsed >= BODY_GRACE_MS && ((socket.bytesRead - body.read) * 1000) / elapsed < this.limits.minBodyBytesPerSecond)
        socket.destroy();
    }
    this.boundUnread();
    for (const socket of this.open.keys()) {
      if (socket.writableLength === 0) {
        this.writing.delete(socket);
        continue;
      }
      const seen = this.writing.get(socket);
      if (!seen || seen.written !== socket.bytesWritten) this.writing.set(socket, { written: socket.bytesWritten, since: now });
      else if (now - seen.since >= this.limits.stalledWriteMs) socket.destroy();
    }
  }

  /** The connections of the client address that holds the most (the first such, on a tie). */
  private largest(): Set<Socket> {
    let most = new Set<Socket>();
    for (const sockets of this.byClient.values()) if (sockets.size > most.size) most = sockets;
    return most;
  }

  /**
   * Close the connection furthest behind among `among`: the most answer bytes its client has not
   * read, then the one waiting longest (its oldest unanswered request, or idle since longest).
   * False when `among` is empty.
   */
  private shed(among: Set<Socket>): boolean {
    let worst: Socket | undefined;
    let worstUnread = -1;
    let worstSince = Infinity;
    for (const socket of among) {
      const unread = socket.writableLength;
      const since = this.open.get(socket)!.since;
      if (unread > worstUnread || (unread === worstUnread && since < worstSince)) {
        worst = socket;
        worstUnread = unread;
        worstSince = since;
      }
    }
    if (!worst) return false;
    this.close(worst);
    return true;
  }

  /** Forgotten now, not at its close event: a newcomer takes its place at once. */
  private close(socket: Socket): void {
    this.forget(socket);
    socket.destroy();
  }

  private forget(socket: Socket): void {
    const held = this.open.get(socket);
    if (!held) return;
    this.open.delete(socket);
    this.writing.delete(socket);
    this.receiving.delete(socket);
    const mine = this.byClient.get(held.client);
    mine?.delete(socket);
    if (mine?.size === 0) this.byClient.delete(held.client);
  }
}
