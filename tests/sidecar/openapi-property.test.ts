/**
 * Requests generated from the OpenAPI document itself, as a schema-driven client or fuzzer makes
 * them: every parameter of every GET operation filled from its schema (or left out when
 * optional). Each answer must be one the document lists for that operation, with the documented
 * content type and a body that matches the documented schema; a valid request is never refused
 * for a value the schema allows, except where the description says why (since after until; a
 * cursor the server did not write).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  examples?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minLength?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
};
type Parameter = { name: string; in: "query" | "path" | "header"; required?: boolean; schema: Schema };

let sidecar: Sidecar;
let doc: any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

beforeAll(async () => {
  sidecar = await startSidecar(await builtDist());
  doc = await (await sidecar.app.request("/.well-known/openapi.json")).json();
  ajv.addSchema({ $id: "doc", components: doc.components });
});
afterAll(() => sidecar.close());

/** An arbitrary value the schema allows, as it goes in a URL. */
function valueOf(schema: Schema): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...schema.enum.map(String));
  // Values the pattern describes in any case (mentions_technician): each example, in any case.
  if (schema.examples) return fc.constantFrom(...schema.examples).chain((v) => fc.constantFrom(v, v.toLowerCase(), v.toUpperCase()));
  if (schema.format === "date")
    return fc
      .date({ min: new Date("2015-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (schema.type === "integer") return fc.integer({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 }).map(String);
  if (schema.type === "number")
    return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true }).map(String);
  // Strings: words as people search, and any text within the length bounds (or, under a
  // pattern, only words people search, which every pattern here allows).
  if (schema.pattern) return fc.constantFrom("ants", "spiders ants", "Dana", "on time", "é");
  return fc.oneof(
    fc.constantFrom("ants", "spiders", "Dana", "on time", "é"),
    fc.string({ minLength: Math.max(1, schema.minLength ?? 1), maxLength: Math.min(schema.maxLength ?? 40, 40) }),
  );
}

/** A request for `path`'s GET: its path filled, and each query parameter given or left out. */
function requestFor(path: string, parameters: Parameter[]): fc.Arbitrary<string> {
  const filled = parameters
    .filter((p) => p.in !== "header")
    .map((p) =>
      p.required
        ? valueOf(p.schema).map((v) => [p, v] as const)
        : fc.option(
            valueOf(p.schema).map((v) => [p, v] as const),
            { nil: undefined },
          ),
    );
  return fc.tuple(...filled).map((pairs) => {
    let url = path;
    const query = new URLSearchParams();
    for (const pair of pairs) {
      if (!pair) continue;
      const [p, v] = pair;
      if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(v));
      else query.append(p.name, v);
    }
    const qs = query.toString();
    return qs ? `${url}?${qs}` : url;
  });
}

function matches(schema: object, body: unknown): string | undefined {
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
  return validate(body) ? undefined : JSON.stringify(validate.errors?.slice(0, 3));
}

describe("requests generated from the OpenAPI document", () => {
  it("get only documented answers, in the documented shape", async () => {
    const operations = Object.entries<any>(doc.paths).filter(([, item]) => item.get?.parameters?.some((p: Parameter) => p.in !== "header"));
    expect(operations.map(([path]) => path).sort()).toEqual(["/api/reviews/search", "/api/reviews/since/{date}", "/badge.svg"]);
    for (const [path, item] of operations) {
      const op = item.get;
      await fc.assert(
        fc.asyncProperty(requestFor(path, op.parameters), async (url) => {
          const res = await sidecar.app.request(url);
          const documented = op.responses[String(res.status)];
          expect(documented, `${url} answered ${res.status}`).toBeDefined();
          const [type, { schema }] = Object.entries<any>(documented.content)[0]!;
          expect(res.headers.get("content-type")).toBe(type);
          const body = type.includes("json") ? await res.json() : await res.text();
          expect(matches(schema, body), url).toBeUndefined();
          // A 400 for a request the schema allows must say why, naming the parameter.
          if (res.status === 400) {
            const named = body.issues.map((i: { path: string[] }) => i.path[0]);
            expect(
              named.every((n: string) => n === "since" || n === "cursor"),
              `${url}: ${JSON.stringify(body.issues)}`,
            ).toBe(true);
          }
        }),
        { numRuns: 300 },
      );
    }
  });
});
