/**
 * A real HTTPS WebSub subscriber for tests and benchmarks: a certificate from a test CA the hub is told to
 * trust, and a callback per name whose behaviour a test sets (echo the challenge, refuse, hang...).
 */
import { createServer, type Server } from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import { generate } from "selfsigned";
import { until } from "./until.ts";

export interface TestCerts {
  ca: string;
  key: string;
  cert: string;
}

let certs: Promise<TestCerts> | undefined;

/** A CA and a server certificate it signed, for localhost, 127.0.0.1 and ::1. */
export function testCerts(): Promise<TestCerts> {
  certs ??= (async () => {
    const ca = await generate([{ name: "commonName", value: "reviewcast test CA" }], {
      algorithm: "sha256",
      keyType: "ec",
      extensions: [
        { name: "basicConstraints", cA: true },
        { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true },
      ],
    });
    const leaf = await generate([{ name: "commonName", value: "localhost" }], {
      algorithm: "sha256",
      keyType: "ec",
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
        { name: "extKeyUsage", serverAuth: true },
        {
          name: "subjectAltName",
          altNames: [
            { type: 2, value: "localhost" },
            { type: 7, ip: "127.0.0.1" },
            { type: 7, ip: "::1" },
          ],
        },
      ],
    } as never);
    return { ca: ca.cert, key: leaf.private, cert: leaf.cert };
  })();
  return certs;
}

export interface Received {
  name: string;
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export type Behaviour =
  | { kind: "echo" }
  | { kind: "wrong-echo" }
  | { kind: "status"; status: number }
  | { kind: "hang" }
  | { kind: "huge" }
  | { kind: "slow"; ms: number };

export class Subscriber {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(certs?: TestCerts): Promise<Subscriber> {
    const { key, cert } = certs ?? (await testCerts());
    let self: Subscriber;
    const server = createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => self.handle(req.method ?? "GET", req.url ?? "/", req.headers, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    self = new Subscriber(server, `https://127.0.0.1:${(server.address() as { port: number }).port}`);
    return self;
  }

  /** The callback URL for `name`, with an optional query string of its own. */
  callback(name: string, query = ""): string {
    return `${this.url}/cb/${name}${query}`;
  }

  behave(name: string, behaviour: Behaviour): void {
    this.behaviours.set(name, behaviour);
  }

  of(name: string, method?: string): Received[] {
    return this.received.filter((r) => r.name === name && (!method || r.method === method));
  }

  waitFor(check: () => boolean, limitMs?: number): Promise<void> {
    return until(check, "the subscriber", limitMs);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer, res: import("node:http").ServerResponse): void {
    const url = new URL(path, this.url);
    const name = url.pathname.replace(/^\/cb\//, "");
    this.received.push({ name, method, url, headers, body, at: Date.now() });
    const behaviour = this.behaviours.get(name) ?? { kind: "echo" };
    const challenge = url.searchParams.get("hub.challenge") ?? "";
    switch (behaviour.kind) {
      case "echo":
        res.writeHead(method === "GET" ? 200 : 204).end(method === "GET" ? challenge : undefined);
        return;
      case "wrong-echo":
        res.writeHead(200).end(`${challenge}x`);
        return;
      case "status":
        res.writeHead(behaviour.status).end(method === "GET" ? challenge : "no");
        return;
      case "hang":
        return; // never answers
      case "huge": {
        // Answers "forever": the hub must stop reading after its cap.
        res.writeHead(200, { "content-type": "text/plain" });
        const block = Buffer.alloc(64 * 1024, 97);
        const pump = () => {
          while (res.write(block)) if (res.destroyed) return;
          res.once("drain", pump);
        };
        res.on("error", () => {});
        pump();
        return;
      }
      case "slow":
        setTimeout(() => res.writeHead(method === "GET" ? 200 : 204).end(method === "GET" ? challenge : undefined), behaviour.ms);
        return;
    }
  }
}
