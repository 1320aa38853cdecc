/**
 * Requests Node's HTTP parser refuses before any handler runs (a URL and headers over its
 * maxHeaderSize, a malformed request line), answered with the contract's JSON error body where
 * Node would send the status line alone. The statuses are Node's own (its server's socketOnError).
 */
import { maxHeaderSize, STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import type { ErrorBody } from "../../core/api/params.ts";
import { CORS_HEADERS } from "./cors.ts";

/** How long a refused client's socket is kept to read what it still sends, so that it reads the answer before the close. */
const LINGER_MS = 1_000;

export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    // As Node does: no answer where one is already being sent on this socket (it would corrupt it).
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || inFlight?.headersSent || error.code === "ECONNRESET") return void socket.destroy();
    const [status, body] = answerTo(error, (server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize);
    const json = JSON.stringify(body);
    const headers = {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(json)),
      "cache-control": "no-store",
      ...CORS_HEADERS,
      connection: "close",
    };
    const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join("")}\r\n${json}`);
    // The rest of a long request is read and dropped: closing a socket that still has unread data
    // sends a reset, which can wipe the answer from the client's buffer before it is read.
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

function answerTo(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, limit: number): [number, ErrorBody] {
  const kb = Math.round(limit / 1024);
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW": {
      // The request line's end not in sight (or far in): it is the URL that is too long.
      const packet = error.rawPacket?.toString("latin1") ?? "";
      const lineEnd = packet.indexOf("\r\n");
      const url = /^[A-Z]+ /.test(packet) && (lineEnd === -1 || lineEnd > limit / 2);
      return url
        ? [431, { error: "url_too_long", message: `the URL is too long: the URL and the headers must fit in ${kb} KB together` }]
        : [431, { error: "headers_too_large", message: `the request's URL and headers are over ${kb} KB together` }];
    }
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, { error: "payload_too_large", message: "the request body's chunk extensions are too large" }];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, { error: "request_timeout", message: "the request did not arrive in time" }];
    default:
      return [400, { error: "bad_request", message: "malformed HTTP request" }];
  }
}
