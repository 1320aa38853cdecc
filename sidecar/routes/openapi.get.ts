/** `GET /.well-known/openapi.json`, generated once per process. */
import { strongEtag } from "../http/conditional.ts";
import { represent } from "../http/respond.ts";
import { openApiDocument } from "../openapi.ts";

export function defineOpenApiRoute(baseUrl: string) {
  const body = JSON.stringify(openApiDocument(baseUrl));
  const etag = strongEtag(body);
  return (request: Request): Response =>
    represent(request, { body, contentType: "application/json", cacheControl: "public, max-age=300", validators: { etag } });
}
