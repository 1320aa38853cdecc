/** `GET /.well-known/openapi.json`, generated once per process. */
import { createHash } from "node:crypto";
import { represent } from "../http/respond.ts";
import { openApiDocument } from "../openapi.ts";

export function defineOpenApiRoute(baseUrl: string) {
  const body = JSON.stringify(openApiDocument(baseUrl));
  const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
  return (request: Request): Response =>
    represent(request, { body, contentType: "application/json", cacheControl: "public, max-age=300", validators: { etag } });
}
