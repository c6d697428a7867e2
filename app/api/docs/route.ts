import { handle } from "@/lib/http";
import { publicOrigin } from "@/lib/server/auth/settings";
import { openApiDocument } from "@/lib/server/openapi/document";
import { renderReferencePage } from "@/lib/server/openapi/reference-page";

export const dynamic = "force-dynamic";

/**
 * Open to anyone: the API reference as one HTML page rendered here from the OpenAPI document. It
 * carries no script and no stylesheet, so the API's own policy (default-src 'none'; sandbox) suits it.
 */
export const GET = handle(async (req: Request) => {
  const html = renderReferencePage(openApiDocument(publicOrigin(req)));
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
});
