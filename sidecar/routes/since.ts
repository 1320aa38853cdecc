/**
 * `GET /api/reviews/since/{date}`: reviews dated on or after the date, newest first; the older
 * reviews published, edited or answered on or after it (`changed`); and the ids of reviews
 * withdrawn on or after it, so an incremental copy stays exact with one call. Conditional GET: the
 * ETag hashes the body; Last-Modified is the latest change the data records behind it.
 */
import { getValidatedQuery, getValidatedRouterParams } from "h3";
import { latest } from "../../core/dataset.ts";
import type { BundleRef } from "../bundle.ts";
import { strongEtag } from "../../core/dist/etag.ts";
import { invalidParameters } from "../http/errors.ts";
import type { Handler } from "../http/handler.ts";
import { refusedTogether, strictQuery } from "../http/query.ts";
import { represent } from "../http/respond.ts";
import { SincePath, SinceQuery } from "../../core/api/params.ts";
import { pageResult, reviewsSince } from "../search/run.ts";

export function defineSinceRoute(bundle: BundleRef): Handler {
  const querySchema = strictQuery(SinceQuery);
  return async (_request, _url, _params, event) => {
    // Both checked before either refuses, so that one answer names every bad parameter.
    const [path, query] = await Promise.allSettled([
      getValidatedRouterParams(event, SincePath, { decode: true }),
      getValidatedQuery(event, querySchema),
    ]);
    if (path.status === "rejected" || query.status === "rejected") throw refusedTogether(path, query);
    const current = bundle.current;
    const since = path.value.date;
    const result = reviewsSince(current, since, query.value.limit, query.value.cursor);
    if (!result.ok) return invalidParameters(result.issues);
    const { page, removed, changed, changedTruncated } = result.value;
    const body = pageResult(current, page).json(
      { since, removed: removed.map((w) => w.id) },
      { changed: current.index.jsonList(changed), changed_truncated: String(changedTruncated) },
    );
    const lastModified = latest([
      current.dataset.business.updated,
      ...removed.map((w) => w.at),
      ...[...page.positions, ...changed].map((p) => current.index.changedAtPosition(p)),
    ]);
    return represent(event, {
      body,
      contentType: "application/json",
      cacheControl: "public, max-age=60",
      etag: strongEtag(body),
      lastModified: new Date(lastModified),
    });
  };
}
