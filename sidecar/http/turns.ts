/**
 * Request handlers run in turns by client address, one handler a turn of the event loop. Node
 * runs a handler as soon as its request is parsed, so a burst of requests from many connections
 * was worked off in one go while the loop accepted no connection and read no socket: a newcomer
 * from another address waited behind every request already parsed, or its connection behind the
 * full accept queue (tests/abuse/lockout.test.ts). Here it waits for one handler of each address
 * with work queued; between two handlers Node polls its sockets.
 */
export class Turns {
  /**
   * The handlers waiting, by client address; an address goes to the back once it has had its turn.
   * Each says whether it ran: one whose connection has closed does not, and takes no turn.
   */
  private readonly queues = new Map<string, (() => boolean)[]>();
  private scheduled = false;

  take(client: string, run: () => boolean): void {
    const queue = this.queues.get(client);
    if (queue) queue.push(run);
    else this.queues.set(client, [run]);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.queues.size === 0) return;
    this.scheduled = true;
    setImmediate(() => this.next());
  }

  private next(): void {
    this.scheduled = false;
    try {
      // An address put back at the end is met again by this loop: it ends at the first handler that runs.
      for (const [client, queue] of this.queues) {
        this.queues.delete(client);
        const run = queue.shift()!;
        if (queue.length > 0) this.queues.set(client, queue);
        if (run()) break;
      }
    } finally {
      this.schedule();
    }
  }
}
