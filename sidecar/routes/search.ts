/** `GET /api/reviews/search`: the spec's eight filters plus `cursor`, newest first. */
import type { BundleRef } from "../bundle.ts";
import { invalidParameters } from "../http/errors.ts";
import { parseQuery } from "../http/query.ts";
import { represent } from "../http/respond.ts";
import { SearchParams } from "../../core/api/params.ts";
import { searchReviews } from "../search/run.ts";

export function defineSearchRoute(bundle: BundleRef) {
  return (request: Request, url: URL): Response => {
    const params = parseQuery(url.searchParams, SearchParams);
    if (!params.ok) return invalidParameters(params.issues);
    const result = searchReviews(bundle.current, params.value);
    if (!result.ok) return invalidParameters(result.issues);
    return represent(request, { body: result.value.json(), contentType: "application/json", cacheControl: "public, max-age=60" });
  };
}
