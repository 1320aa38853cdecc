import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";
import { SEARCH_PARAMETERS } from "../helpers/search-parameters.ts";

let sidecar: Sidecar;
let doc: any;

beforeAll(async () => {
  sidecar = await startSidecar(await builtDist());
  const res = await sidecar.app.request("/.well-known/openapi.json");
  expect(res.status).toBe(200);
  doc = await res.json();
});
afterAll(() => sidecar.close());

/** Example values for a route's required parameters, so each documented route can be called. */
const EXAMPLES: Record<string, string> = { date: "2025-06-01" };

function validatorFor(schema: object) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components });
  const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
  return ajv.compile(rewritten);
}

describe("/.well-known/openapi.json", () => {
  it("is a valid OpenAPI 3.1.0 document, version 1.0.0", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every read route with its parameters", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/.well-known/openapi.json",
        "/api/feed.json",
        "/api/reviews/search",
        "/api/reviews/since/{date}",
        "/api/websub/hub",
        "/badge.svg",
        "/feed.xml",
        "/insights.json",
        "/mcp",
        "/reviews.json",
      ].sort(),
    );
    expect(
      Object.keys(doc.paths["/api/websub/hub"].post.requestBody.content["application/x-www-form-urlencoded"].schema.properties).sort(),
    ).toEqual(["hub.callback", "hub.lease_seconds", "hub.mode", "hub.secret", "hub.topic", "hub.url"]);
    const names = doc.paths["/api/reviews/search"].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(names).toEqual([...SEARCH_PARAMETERS].sort());
    const limit = doc.paths["/api/reviews/search"].get.parameters.find((p: { name: string }) => p.name === "limit");
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
  });

  it("answers every documented route as documented: status, content type and schema", async () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!item.get) continue;
      const url = path.replace(/\{(\w+)\}/g, (_, name) => EXAMPLES[name]!);
      const res = await sidecar.app.request(url, { headers: { "accept-encoding": "identity" } });
      expect(res.status, path).toBe(200);
      const documented = item.get.responses["200"].content;
      const [type, { schema }] = Object.entries<any>(documented)[0]!;
      expect(res.headers.get("content-type"), path).toBe(type);
      const body = type.includes("json") ? await res.json() : await res.text();
      const validate = validatorFor(schema);
      expect(validate(body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it("passes Redocly's recommended ruleset with no error, and only the warnings known to be open", async () => {
    // @redocly/openapi-core is the engine `redocly lint` runs, here without the CLI's network calls.
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "openapi.json", config });
    const seen = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ""}`);
    expect(seen.filter((p) => p.startsWith("error"))).toEqual([]);
    // The tests serve from localhost (production's BASE_URL is the public host).
    const known = (p: string) => p.includes("no-server-example.com");
    expect(seen.filter((p) => !known(p))).toEqual([]);
  });

  it("lists the ids the server takes: services as an enum, technicians as a pattern that ignores case, each accepted by the search", async () => {
    type Schema = { enum?: string[]; pattern?: string; examples?: string[] };
    const params = doc.paths["/api/reviews/search"].get.parameters as { name: string; schema: Schema }[];
    const services = params.find((p) => p.name === "mentions_service")!.schema.enum!;
    const technician = params.find((p) => p.name === "mentions_technician")!.schema;
    expect(technician.enum).toBeUndefined();
    const technicians = technician.examples!;
    const reviews = JSON.parse(await (await sidecar.app.request("/reviews.json")).text());
    expect(services).toEqual(reviews.business.services.map((s: { id: string }) => s.id));
    for (const t of reviews.business.technicians) expect(technicians).toEqual(expect.arrayContaining([t.id, t.name]));
    // As JSON Schema validators read a pattern: ECMA-262 with the u flag.
    const pattern = new RegExp(technician.pattern!, "u");
    const variants = technicians.flatMap((v) => [v, v.toLowerCase(), v.toUpperCase()]);
    for (const value of variants) expect(pattern.test(value), value).toBe(true);
    for (const value of ["ants", "dana whitfield x", "chris"]) expect(pattern.test(value), value).toBe(false);
    for (const [name, values] of [
      ["mentions_service", services],
      ["mentions_technician", variants],
    ] as const) {
      for (const value of values) {
        const res = await sidecar.app.request(`/api/reviews/search?limit=1&${name}=${encodeURIComponent(value)}`);
        expect(res.status, `${name}=${value}`).toBe(200);
      }
    }
  });

  it("gives every operation an operationId and a 4xx answer, and declares the API public", () => {
    expect(doc.security).toEqual([]);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        expect(
          Object.keys(op.responses).some((s) => s.startsWith("4")),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
  });

  it("documents the 400 body the search route really sends", async () => {
    const res = await sidecar.app.request("/api/reviews/search?limit=0");
    expect(res.status).toBe(400);
    const validate = validatorFor(doc.paths["/api/reviews/search"].get.responses["400"].content["application/json"].schema);
    expect(validate(await res.json())).toBe(true);
  });
});
