import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";

export const dynamic = "force-dynamic";

/**
 * Every /api path no route handles, with any method: the contract's JSON 404, not the HTML page.
 * The body is never read, so whatever it is (a malformed form included) it cannot fail the request.
 */
function notFound(req: Request): Response {
  const { pathname } = new URL(req.url);
  return errorResponse(
    new AppError("not_found", `No API route at ${pathname}. The API is described at /api/openapi.json.`),
  );
}

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
