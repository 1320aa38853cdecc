/**
 * What a client meets when its URL cannot be read: percent-encoding that is not UTF-8 and a URL
 * over Node's header limit, sent as they are (fetch would re-encode them) to a real server.
 */
import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { review, smallData } from "../../harness/data.ts";
import { builtDist, listenLimited, startSidecar, type Sidecar } from "../../harness/sidecar.ts";
import { until } from "../../harness/until.ts";

let sidecar: Sidecar;
let port: number;
let listening: Awaited<ReturnType<typeof listenLimited>>;
beforeAll(async () => {
  sidecar = await startSidecar(await builtDist(await smallData([review()])));
  listening = await listenLimited(sidecar.app);
  port = listening.port;
});
afterAll(async () => {
  await listening.close();
  await sidecar.close();
});

/** GET `path` byte for byte as given, over node:http to the listening server. */
function rawGet(path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: "GET", headers: { connection: "close" } }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, type: res.headers["content-type"], body }));
    });
    req.on("error", reject).end();
  });
}

async function refusal(path: string) {
  const res = await rawGet(path);
  expect(res.status).toBe(400);
  expect(res.type).toBe("application/json");
  return JSON.parse(res.body);
}

describe("percent-encoding that is not UTF-8", () => {
  it("in a review page's path: 400 naming the path segment", async () => {
    const body = await refusal("/reviews/%ff/");
    expect(body.error).toBe("malformed_url");
    expect(body.message).toContain('the path segment "%ff" is not valid UTF-8 percent-encoding');
    expect(body.issues).toEqual([expect.objectContaining({ path: ["path"] })]);
  });

  it("in since's date: 400 naming date", async () => {
    const body = await refusal("/api/reviews/since/2026-10-01%ff");
    expect(body.message).toContain('the path parameter date "2026-10-01%ff" is not valid UTF-8 percent-encoding');
    expect(body.issues).toEqual([expect.objectContaining({ path: ["date"] })]);
  });

  it("in search's query value: 400 naming query, not an empty search", async () => {
    const body = await refusal("/api/reviews/search?query=%ff");
    expect(body.message).toContain("the value of query is not valid UTF-8 percent-encoding");
    expect(body.issues).toEqual([expect.objectContaining({ path: ["query"] })]);
  });

  it("in a parameter's name: 400 naming it", async () => {
    const body = await refusal("/api/reviews/search?q%ff=1");
    expect(body.message).toContain('the parameter name "q%ff" is not valid UTF-8 percent-encoding');
  });

  it("in many parts: a small answer naming the first few", async () => {
    const body = await refusal(`/api/reviews/search?${Array.from({ length: 500 }, (_, i) => `p${i}=%ff`).join("&")}`);
    expect(body.issues).toHaveLength(4);
    expect(body.issues[3].message).toContain("497 more parts");
  });

  it("leaves well-formed UTF-8 alone: %C3%A9 is é", async () => {
    const res = await rawGet("/api/reviews/search?query=%C3%A9");
    expect(res.status).toBe(200);
  });
});

describe("a URL over Node's 16 KB header limit", () => {
  it("keeps 431 and gets the JSON error body saying the URL is too long", async () => {
    const res = await rawGet(`/api/reviews/search?query=${"a".repeat(17 * 1024)}`);
    expect(res.status).toBe(431);
    expect(res.type).toBe("application/json");
    const body = JSON.parse(res.body);
    expect(body.error).toBe("url_too_long");
    expect(body.message).toContain("the URL is too long");
  });

  it("gets the same answer as the second request on a kept-alive connection", async () => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => (answer += d));
    socket.write("GET /api/reviews/search?limit=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await until(() => /"reviews"/.test(answer), "the first answer");
    answer = "";
    socket.write(`GET /api/reviews/search?query=${"a".repeat(17 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await new Promise((r) => socket.on("close", r));
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).error).toBe("url_too_long");
  });
});
