/**
 * A developer's typed client, made as people make one: openapi-typescript turns the served
 * OpenAPI document into types (with the project's own TypeScript, which it needs as 5.x), the
 * TypeScript compiler checks a client written against them, and openapi-fetch calls the server.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import createClient from "openapi-fetch";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../harness/data.ts";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;
let types: string;

beforeAll(async () => {
  sidecar = await startSidecar(await builtDist());
  const doc = await (await fetch(`${sidecar.url}/.well-known/openapi.json`)).json();
  types = astToString(await openapiTS(doc));
});
afterAll(() => sidecar.close());

/** Type errors of `client` compiled beside the generated types. */
async function typeErrors(client: string): Promise<string[]> {
  const dir = await tempDir();
  await writeFile(join(dir, "api.d.ts"), types);
  await writeFile(join(dir, "client.ts"), client);
  const program = ts.createProgram([join(dir, "client.ts")], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("a client generated from /.well-known/openapi.json", () => {
  it("takes a technician's first name in lower case, as the server does", async () => {
    const errors = await typeErrors(`
      import type { paths } from "./api";
      type Query = NonNullable<paths["/api/reviews/search"]["get"]["parameters"]["query"]>;
      const query: Query = { mentions_technician: "dana", min_rating: 4, limit: 5 };
      export default query;
    `);
    expect(errors).toEqual([]);
  });

  it("refuses, at compile time, a service id the business does not have", async () => {
    const errors = await typeErrors(`
      import type { paths } from "./api";
      type Query = NonNullable<paths["/api/reviews/search"]["get"]["parameters"]["query"]>;
      const query: Query = { mentions_service: "bat-removal" };
      export default query;
    `);
    expect(errors.join("\n")).toMatch(/bat-removal/);
  });

  it("calls the search and since routes with openapi-fetch and reads typed answers", async () => {
    // TypeScript's compiler above holds this process's event loop for seconds, past the server's
    // keep-alive timeout: a pooled connection the server closed meanwhile can reset once. Clients
    // retry an idempotent GET on a reset connection (RFC 9110 §9.2.2), and so does this one.
    const retried = (request: Request) =>
      fetch(request.clone()).catch((e: { cause?: { code?: string } }) =>
        e.cause?.code === "ECONNRESET" ? fetch(request) : Promise.reject(e),
      );
    const client = createClient<any>({ baseUrl: sidecar.url, fetch: retried });
    const search = await client.GET("/api/reviews/search", { params: { query: { mentions_technician: "dana", limit: 2 } } });
    expect(search.response.status).toBe(200);
    expect(search.data.reviews.length).toBe(2);
    for (const r of search.data.reviews) expect(r.technicians).toContain("dana-whitfield");
    const since = await client.GET("/api/reviews/since/{date}", { params: { path: { date: "2026-01-01" } } });
    expect(since.response.status).toBe(200);
    expect(since.data).toMatchObject({
      since: "2026-01-01",
      removed: expect.any(Array),
      changed: expect.any(Array),
      changed_truncated: expect.any(Boolean),
    });
  });
});
