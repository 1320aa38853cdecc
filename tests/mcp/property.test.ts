import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useConnectedSidecar } from "../helpers/mcp.ts";

const connected = useConnectedSidecar();

const date = fc
  .date({ min: new Date("2022-06-01"), max: new Date("2027-01-01"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const args = fc.record(
  {
    rating: fc.integer({ min: 1, max: 5 }),
    min_rating: fc.integer({ min: 1, max: 5 }),
    since: date,
    until: date,
    query: fc.constantFrom("ants", "on time", "price", "Dana", "came back", "termite", "the", "mice"),
    mentions_technician: fc.constantFrom("dana-whitfield", "Marco", "jake olsen", "chris-dunn"),
    mentions_service: fc.constantFrom("ant-control", "rodent-control", "quarterly-plan"),
    limit: fc.integer({ min: 1, max: 100 }),
  },
  { requiredKeys: [] },
);

describe("search_reviews over MCP equals GET /api/reviews/search (property)", () => {
  it("returns exactly the HTTP search's reviews for random valid arguments", async () => {
    await fc.assert(
      fc.asyncProperty(args, async (a) => {
        if (a.since && a.until && a.since > a.until) [a.since, a.until] = [a.until, a.since];
        const qs = new URLSearchParams(Object.entries(a).map(([k, v]) => [k, String(v)]));
        const http = await (await connected.sidecar.app.request(`/api/reviews/search?${qs}`)).json();
        const mcp = await connected.client.callTool({ name: "search_reviews", arguments: { ...a, detail: "full" } });
        expect(mcp.isError).toBeFalsy();
        // The same page, plus the permalink pattern MCP results carry once.
        expect(mcp.structuredContent).toEqual({ ...http, review_url: "http://localhost:3000/reviews/{id}/" });
      }),
      { numRuns: 150 },
    );
  });
});
