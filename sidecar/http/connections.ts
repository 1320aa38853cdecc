/**
 * The connections a server holds, by client address, with which of them are idle (no request in
 * progress) and which are receiving a body: what server.ts sheds at its caps, and where it looks
 * for answers nobody reads and bodies that barely move.
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

/** The open connections, by client address, with which of them are idle (no request in progress). */
export class Connections {
  private readonly open = new Map<Socket, { client: string; pending: number }>();
  /** Idle connections, oldest first (a Set keeps insertion order). */
  private readonly idle = new Set<Socket>();
  private readonly byClient = new Map<string, Set<Socket>>();
  /** Connections with answers waiting to go out: how much was written, and since when no more. */
  private readonly writing = new Map<Socket, { written: number; since: number }>();
  /** Connections receiving a request's body: bytes read when it began, and when, oldest first. */
  private readonly receiving = new Map<Socket, { read: number; since: number; complete: () => boolean }>();

  constructor(private readonly limits: ConnectionLimits) {
    // An answer the client does not read stays in the socket's buffer, and its response never
    // finishes: no per-response event tells, so one sweep looks at every connection's progress.
    setInterval(() => this.sweep(), Math.min(1_000, limits.stalledWriteMs / 2)).unref();
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
      this.forget(socket);
      socket.destroy();
      total -= bytes;
      byClient.set(client, mine - bytes);
    }
  }

  /** Take a new connection, shedding an idle one (or one with a body in progress) at a cap; false when it was refused. */
  admit(socket: Socket): boolean {
    const client = socket.remoteAddress ?? "";
    const mine = this.byClient.get(client) ?? new Set<Socket>();
    const refused =
      (mine.size >= this.limits.maxConnectionsPerClient && !this.shed(mine, mine)) ||
      (this.open.size >= this.limits.maxConnections && !this.shed(this.idle, this.receiving.keys()));
    if (refused) {
      socket.destroy();
      return false;
    }
    this.open.set(socket, { client, pending: 0 });
    this.idle.add(socket);
    mine.add(socket);
    this.byClient.set(client, mine);
    socket.once("close", () => this.forget(socket));
    return true;
  }

  private forget(socket: Socket): void {
    const entry = this.open.get(socket);
    if (!entry) return;
    this.open.delete(socket);
    this.idle.delete(socket);
    this.writing.delete(socket);
    this.receiving.delete(socket);
    const mine = this.byClient.get(entry.client);
    mine?.delete(socket);
    if (mine?.size === 0) this.byClient.delete(entry.client);
  }

  /** A request began on `socket`: how many there now wait for their answers. */
  started(socket: Socket): number {
    const entry = this.open.get(socket);
    if (!entry) return 0;
    this.idle.delete(socket);
    return ++entry.pending;
  }

  /** A request's body began to arrive on `socket`: it is judged by the floor rate until it is complete (or bodyDone). */
  bodyStarted(socket: Socket, complete: () => boolean): void {
    if (this.open.has(socket)) this.receiving.set(socket, { read: socket.bytesRead, since: Date.now(), complete });
  }

  bodyDone(socket: Socket): void {
    this.receiving.delete(socket);
  }

  finished(socket: Socket): void {
    const entry = this.open.get(socket);
    if (!entry) return;
    entry.pending = Math.max(0, entry.pending - 1);
    if (entry.pending === 0 && !socket.destroyed) this.idle.add(socket);
  }

  /** Close an idle connection among `idle`, else one receiving a body among `receiving`, oldest first; false when there is none. */
  private shed(idle: Iterable<Socket>, receiving: Iterable<Socket>): boolean {
    return this.shedFrom(idle, this.idle) || this.shedFrom(receiving, this.receiving);
  }

  /** Close the oldest connection among `among` that is in `state`; false when there is none. */
  private shedFrom(among: Iterable<Socket>, state: { has(socket: Socket): boolean }): boolean {
    for (const socket of among) {
      if (!state.has(socket)) continue;
      // Forgotten now, not at its close event: the new connection takes its place at once.
      this.forget(socket);
      socket.destroy();
      return true;
    }
    return false;
  }
}
