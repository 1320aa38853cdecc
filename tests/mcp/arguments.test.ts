/**
 * Random tool calls, valid or not, through the official client: each gets a tool result, never a
 * protocol error. A refusal is a tool error (isError) whose text is short whatever was sent; a
 * success has the structured content the client checks against the tool's output schema.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { structured, textOf, useConnectedSidecar } from "../helpers/mcp.ts";

const connected = useConnectedSidecar();

const date = fc
  .date({ min: new Date("2022-06-01"), max: new Date("2027-01-01"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const call = (ids: string[]) =>
  fc.oneof(
    fc.record({
      name: fc.constant("search_reviews"),
      arguments: fc.record(
        {
          rating: fc.integer({ min: 0, max: 6 }),
          min_rating: fc.integer({ min: 1, max: 5 }),
          since: date,
          until: date,
          query: fc.constantFrom("ants", "on time", "price", "Dana", "zzz"),
          mentions_technician: fc.constantFrom("dana", "chris", "marco-ruiz", "nobody"),
          mentions_service: fc.constantFrom("ant-control", "bats"),
          limit: fc.integer({ min: 0, max: 101 }),
          detail: fc.constantFrom("compact", "full", "medium"),
        },
        { requiredKeys: [] },
      ),
    }),
    fc.record({
      name: fc.constant("get_review"),
      arguments: fc.record({ id: fc.oneof(fc.constantFrom("r-0000-000", "x"), fc.constantFrom(...ids)) }),
    }),
    fc.record({ name: fc.constant("get_business"), arguments: fc.constant({}) }),
    fc.record({
      name: fc.constant("get_reviews_since"),
      arguments: fc.record({ date, limit: fc.integer({ min: 0, max: 30 }) }, { requiredKeys: ["date"] }),
    }),
    fc.record({
      name: fc.constant("get_insights"),
      arguments: fc.record(
        { technician: fc.constantFrom("dana", "Marco", "x"), service: fc.constantFrom("ant-control") },
        { requiredKeys: [] },
      ),
    }),
  );

describe("tools/call with random arguments", () => {
  it("answers each with a tool result: a short tool error, or structured content the client accepts", async () => {
    const ids = connected.sidecar.bundle.current.index.ids.slice(0, 50);
    let succeeded = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(call(ids), async (params) => {
        const result = await connected.client.callTool(params);
        if (result.isError) {
          refused++;
          expect(textOf(result).length).toBeLessThan(1_000);
        } else {
          succeeded++;
          expect(structured(result)).toBeDefined();
        }
      }),
      { numRuns: 200 },
    );
    // Both kinds were met: the arguments reach the handlers and the schemas' refusals alike.
    expect(succeeded).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(20);
  });
});
