/**
 * The hub's outbound HTTPS: to the address the SSRF check approved, with a connect timeout, a
 * total timeout, no redirects followed, and at most a small part of the answer read.
 */
import { request, Agent } from "node:https";
import { isIP } from "node:net";
import { createSecureContext, rootCertificates } from "node:tls";
import { Readable } from "node:stream";
import type { ResolvedCallback } from "./ssrf.ts";
import type { Streamed } from "../http/respond.ts";

export interface OutboundOptions {
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  /** Most bytes of a response read; the rest is dropped with the connection. */
  maxResponseBytes: number;
  /** A request whose callback takes no bytes of it (nor sends any) for this long is cut off. */
  stallMs: number;
  /** A kept-alive socket idle this long is closed. */
  idleSocketMs: number;
  /** Sockets open at once, to all callbacks together. */
  maxSockets: number;
  /** Time for a callback's host name to resolve. */
  dnsTimeoutMs: number;
  /** Extra CA certificates to trust besides the system's and NODE_EXTRA_CA_CERTS (tests). */
  ca?: string[];
}

export interface OutboundResponse {
  status: number;
  body: string;
  truncated: boolean;
}

export function createAgent(options: OutboundOptions): Agent {
  // One secure context for every connection: given as `ca`, the ~140 root certificates would be
  // parsed again for each new TLS connection (tens of milliseconds of CPU each).
  const secureContext = options.ca && createSecureContext({ ca: [...rootCertificates, ...options.ca] });
  // `timeout` closes sockets left idle in the keep-alive pool (Agent#keepSocketAlive sets it on
  // them); without it and a total cap, 200 callbacks that keep connections open held 200 sockets.
  return new Agent({
    keepAlive: true,
    timeout: options.idleSocketMs,
    maxSockets: Math.min(64, options.maxSockets),
    maxTotalSockets: options.maxSockets,
    maxFreeSockets: 16,
    ...(secureContext && { secureContext }),
  });
}

export function send(
  url: URL,
  to: ResolvedCallback,
  /** A Streamed body is read as the socket takes it: a callback that does not read holds one piece. */
  init: { method: "GET" | "POST"; headers?: Record<string, string>; body?: Streamed },
  options: OutboundOptions,
  agent: Agent,
): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const hostname = url.hostname.replace(/^\[|\]$/g, "");
    const req = request({
      host: to.address,
      family: to.family,
      port: url.port || 443,
      path: `${url.pathname}${url.search}`,
      method: init.method,
      agent,
      // TLS checks the certificate against the callback's name, not the address dialled.
      servername: isIP(hostname) ? undefined : hostname,
      headers: {
        host: url.host,
        "user-agent": "reviewcast-websub-hub",
        ...init.headers,
        ...(init.body && { "content-length": String(init.body.length) }),
      },
    });
    req.setTimeout(options.stallMs, () => req.destroy(new Error(`the callback took nothing for ${options.stallMs} ms`)));
    const total = setTimeout(
      () => req.destroy(new Error(`no complete answer within ${options.totalTimeoutMs} ms`)),
      options.totalTimeoutMs,
    );
    req.on("socket", (socket) => {
      if (!socket.connecting) return;
      const connect = setTimeout(
        () => req.destroy(new Error(`could not connect within ${options.connectTimeoutMs} ms`)),
        options.connectTimeoutMs,
      );
      socket.once("connect", () => clearTimeout(connect));
      socket.once("close", () => clearTimeout(connect));
    });
    req.on("error", (error) => {
      clearTimeout(total);
      reject(error);
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on("data", (chunk: Buffer) => {
        if (truncated) return;
        size += chunk.length;
        if (size > options.maxResponseBytes) {
          truncated = true;
          chunks.push(chunk.subarray(0, options.maxResponseBytes - (size - chunk.length)));
          clearTimeout(total);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), truncated });
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () => {
        clearTimeout(total);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), truncated });
      });
      res.on("error", (error) => {
        clearTimeout(total);
        reject(error);
      });
    });
    if (!init.body) return void req.end();
    const body = Readable.fromWeb(init.body.open() as import("node:stream/web").ReadableStream, { highWaterMark: 0 });
    body.on("error", (error) => req.destroy(error));
    req.on("close", () => body.destroy());
    body.pipe(req);
  });
}
