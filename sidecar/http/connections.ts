/**
 * The connections a server holds, by client address, with which of them are idle (no request in
 * progress): what server.ts sheds at its caps, and where it looks for answers nobody reads.
 */
import type { Socket } from "node:net";

/** What the connections are held to (server.ts's ServerLimits documents each). */
export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerClient: number;
  stalledWriteMs: number;
}

/** The open connections, by client address, with which of them are idle (no request in progress). */
export class Connections {
  private readonly open = new Map<Socket, { client: string; pending: number }>();
  /** Idle connections, oldest first (a Set keeps insertion order). */
  private readonly idle = new Set<Socket>();
  private readonly byClient = new Map<string, Set<Socket>>();
  /** Connections with answers waiting to go out: how much was written, and since when no more. */
  private readonly writing = new Map<Socket, { written: number; since: number }>();

  constructor(private readonly limits: ConnectionLimits) {
    // An answer the client does not read stays in the socket's buffer, and its response never
    // finishes: no per-response event tells, so one sweep looks at every connection's progress.
    setInterval(() => this.sweep(), Math.min(1_000, limits.stalledWriteMs / 2)).unref();
  }

  /** Close the connections whose unsent answers have not moved for stalledWriteMs. */
  private sweep(): void {
    const now = Date.now();
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

  /** Take a new connection, shedding an idle one at a cap; false when it was refused. */
  admit(socket: Socket): boolean {
    const client = socket.remoteAddress ?? "";
    const mine = this.byClient.get(client) ?? new Set<Socket>();
    const refused = (mine.size >= this.limits.maxConnectionsPerClient && !this.shedFrom(mine)) || (this.open.size >= this.limits.maxConnections && !this.shedFrom(this.idle));
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

  finished(socket: Socket): void {
    const entry = this.open.get(socket);
    if (!entry) return;
    entry.pending = Math.max(0, entry.pending - 1);
    if (entry.pending === 0 && !socket.destroyed) this.idle.add(socket);
  }

  /** Close the oldest idle connection among `among`; false when none is idle. */
  private shedFrom(among: Iterable<Socket>): boolean {
    for (const socket of among) {
      if (!this.idle.has(socket)) continue;
      // Forgotten now, not at its close event: the new connection takes its place at once.
      this.forget(socket);
      socket.destroy();
      return true;
    }
    return false;
  }
}

