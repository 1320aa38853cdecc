/** `GET /.well-known/openapi.json`, generated once per bundle (its enums list the business's ids). */
import type { Bundle, BundleRef } from "../bundle.ts";
import { strongEtag } from "../../core/dist/etag.ts";
import { represent } from "../http/respond.ts";
import { openApiDocument } from "../../core/api/openapi.ts";

export function defineOpenApiRoute(ref: BundleRef, baseUrl: string) {
  const made = new WeakMap<Bundle, { body: string; etag: string }>();
  const documentFor = (bundle: Bundle) => {
    let doc = made.get(bundle);
    if (!doc) {
      const body = JSON.stringify(openApiDocument(baseUrl, bundle.dataset.business));
      made.set(bundle, (doc = { body, etag: strongEtag(body) }));
    }
    return doc;
  };
  return (request: Request): Response => {
    const { body, etag } = documentFor(ref.current);
    return represent(request, { body, contentType: "application/json", cacheControl: "public, max-age=300", validators: { etag } });
  };
}
