/**
 * MCP session ids that need no server memory: the id carries its own claims and an HMAC over
 * them (MCP_SESSION_SECRET), so any instance sharing the secret accepts a session another one
 * issued. Ending a session (DELETE /mcp) records the id as revoked until it would have expired.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { LRUCache } from "lru-cache";

/** How long a session lives; clients start a new one (initialize) after. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;

export interface SessionClaims {
  /** Random session id, the key revocations are stored under. */
  sid: string;
  /** Issued and expiry times, seconds since the epoch. */
  iat: number;
  exp: number;
  /** The protocol version initialize negotiated: it decides what the session may send (batches). */
  pv?: string;
}

export interface Revocations {
  /**
   * Remember `sid` as ended until `expiresAt` (seconds), unless `limit` sessions are remembered
   * already: then false, and the session stays valid until it expires. (A flood of initialize +
   * DELETE wrote tens of thousands of rows, each kept for a day.)
   */
  revoke(sid: string, expiresAt: number, limit: number): Promise<boolean>;
  /** Those of `sids` that are revoked. */
  revokedAmong(sids: readonly string[]): Promise<Set<string>>;
}

/**
 * The revocation check of every MCP request, made in batches: the checks asked while the event
 * loop works through a burst of requests are answered by one lookup, made (on setImmediate) after
 * all of them were asked, so each still sees every revocation committed before its request
 * arrived. Under load that is one database read for many requests instead of one each.
 */
export class RevocationCheck {
  private waiting?: Set<string>;
  private answer?: Promise<Set<string>>;

  constructor(private readonly revocations: Pick<Revocations, "revokedAmong">) {}

  async isRevoked(sid: string): Promise<boolean> {
    if (!this.waiting) {
      const waiting = (this.waiting = new Set());
      this.answer = new Promise((resolve, reject) =>
        setImmediate(() => {
          this.waiting = undefined;
          this.revocations.revokedAmong([...waiting]).then(resolve, reject);
        }),
      );
    }
    this.waiting.add(sid);
    return (await this.answer!).has(sid);
  }
}

export class SessionSigner {
  /** Ids whose signature was checked, kept so a session's next requests skip the HMAC. */
  private readonly verified = new LRUCache<string, SessionClaims>({ max: 10_000 });

  constructor(
    private readonly secret: string,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** A new session's id, carrying the protocol version its initialize negotiated. */
  issue(protocolVersion?: string): string {
    const iat = this.now();
    const claims: SessionClaims = { sid: randomBytes(16).toString("base64url"), iat, exp: iat + SESSION_TTL_SECONDS, pv: protocolVersion };
    const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
    return `${payload}.${this.mac(payload)}`;
  }

  /** The claims of a well-signed, unexpired id; undefined for anything else. */
  verify(id: string): SessionClaims | undefined {
    const known = this.verified.get(id);
    if (known) return known.exp > this.now() ? known : undefined;
    const claims = this.check(id);
    if (claims) this.verified.set(id, claims);
    return claims;
  }

  private check(id: string): SessionClaims | undefined {
    const [payload, mac, extra] = id.split(".");
    if (!payload || !mac || extra !== undefined || id.length > 512) return undefined;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const bytes = Buffer.from(payload, "base64url");
    // Node's base64url decoder tolerates stray characters: only the exact encoding counts.
    if (bytes.toString("base64url") !== payload) return undefined;
    try {
      const claims = JSON.parse(bytes.toString("utf8")) as SessionClaims;
      if (typeof claims.sid !== "string" || typeof claims.exp !== "number" || claims.exp <= this.now()) return undefined;
      if (claims.pv !== undefined && typeof claims.pv !== "string") return undefined;
      return claims;
    } catch {
      return undefined;
    }
  }

  private mac(payload: string): string {
    return createHmac("sha256", this.secret).update(payload).digest("base64url");
  }
}
