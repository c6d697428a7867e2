import { handle } from "@/lib/http";
import { publicOrigin } from "@/lib/server/auth/settings";
import { openApiDocument } from "@/lib/server/openapi/document";

export const dynamic = "force-dynamic";

/** Open to anyone: the OpenAPI 3.1 document of this API, its server this app's public origin. */
export const GET = handle(async (req: Request) => Response.json(openApiDocument(publicOrigin(req))));
