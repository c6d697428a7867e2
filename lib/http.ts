import type { z } from "zod";
import { AppError } from "./errors.ts";

/** JSON error response in the contract's shape: {"error":{"code","message"}} — never a stack trace. */
export function errorResponse(e: unknown): Response {
  if (e instanceof AppError) {
    return Response.json(e.toJSON(), { status: e.status });
  }
  console.error("unhandled error in route handler", e);
  const internal = new AppError("internal", "Something went wrong on the server. The error was logged.");
  return Response.json(internal.toJSON(), { status: internal.status });
}

/** Wraps a route handler so every thrown error becomes a contract-shaped JSON response. */
export function handle<A extends unknown[]>(fn: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    try {
      return await fn(...args);
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/** Reads and validates a JSON body; malformed JSON and schema violations are caller mistakes. */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    raw = await req.json();
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`);
    throw new AppError("validation_failed", `Invalid request: ${issues.join("; ")}`, { details: issues });
  }
  return parsed.data;
}
