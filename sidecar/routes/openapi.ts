/** `GET /.well-known/openapi.json`, generated once per bundle (its enums list the business's ids). */
import type { Bundle, BundleRef } from "../bundle.ts";
import type { Handler } from "../http/handler.ts";
import { strongEtag } from "../../core/dist/etag.ts";
import { represent } from "../http/respond.ts";
import { openApiDocument } from "../../core/api/openapi.ts";

export function defineOpenApiRoute(ref: BundleRef, baseUrl: string): Handler {
  const made = new WeakMap<Bundle, { body: string; etag: string }>();
  const documentFor = (bundle: Bundle) => {
    let doc = made.get(bundle);
    if (!doc) {
      const body = JSON.stringify(openApiDocument(baseUrl, bundle.dataset.business));
      made.set(bundle, (doc = { body, etag: strongEtag(body) }));
    }
    return doc;
  };
  return (_request, _url, _params, event) => {
    const { body, etag } = documentFor(ref.current);
    return represent(event, { body, contentType: "application/json", cacheControl: "public, max-age=300", etag });
  };
}
