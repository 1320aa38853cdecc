/** MCP session revocations kept in a test's process (the sidecar keeps them in its store: sidecar/store/). */
import type { Revocations } from "../sidecar/mcp/session.ts";

/** Revocations kept in this process: enough for one instance in a test. */
export class MemoryRevocations implements Revocations {
  private readonly revoked = new Map<string, number>();

  constructor(private readonly now: () => number = () => Math.floor(Date.now() / 1000)) {}

  async revoke(sid: string, expiresAt: number, limit: number): Promise<boolean> {
    // Forget what has expired anyway, so the map holds live revocations only.
    const now = this.now();
    for (const [key, exp] of this.revoked) if (exp <= now) this.revoked.delete(key);
    if (!this.revoked.has(sid) && this.revoked.size >= limit) return false;
    this.revoked.set(sid, expiresAt);
    return true;
  }

  async revokedAmong(sids: readonly string[]): Promise<Set<string>> {
    return new Set(sids.filter((sid) => this.revoked.has(sid)));
  }
}
