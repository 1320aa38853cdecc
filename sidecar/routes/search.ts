/** `GET /api/reviews/search`: the spec's eight filters plus `cursor`, newest first. */
import { getValidatedQuery } from "h3";
import type { BundleRef } from "../bundle.ts";
import type { Handler } from "../http/handler.ts";
import { invalidParameters } from "../http/errors.ts";
import { strictQuery } from "../http/query.ts";
import { represent } from "../http/respond.ts";
import { SearchParams } from "../../core/api/params.ts";
import { searchReviews } from "../search/run.ts";

export function defineSearchRoute(bundle: BundleRef): Handler {
  const schema = strictQuery(SearchParams);
  return async (_request, _url, _params, event) => {
    const result = searchReviews(bundle.current, await getValidatedQuery(event, schema));
    if (!result.ok) return invalidParameters(result.issues);
    return represent(event, { body: result.value.json(), contentType: "application/json", cacheControl: "public, max-age=60" });
  };
}
