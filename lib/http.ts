import type { z } from "zod";
import { type Env, envNumber } from "./env.ts";
import { AppError, callerErrorFromDatabase } from "./errors.ts";
import { stripNulDeep } from "./nul.ts";

/** JSON error response in the contract's shape: {"error":{"code","message"}} — never a stack trace. */
export function errorResponse(e: unknown): Response {
  if (e instanceof AppError) {
    return Response.json(e.toJSON(), { status: e.status, headers: e.headers });
  }
  const mapped = callerErrorFromDatabase(e);
  if (mapped) return errorResponse(mapped);
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

/** JSON_BODY_MAX_BYTES: the largest JSON request body a route reads (library uploads have their own). */
export function jsonBodyLimitBytes(env: Env = process.env): number {
  return envNumber(env, "JSON_BODY_MAX_BYTES", 256 * 1024, { min: 1024, integer: true });
}

/**
 * The whole body, refused with `tooLarge` before it is buffered past `maxBytes`: at once when
 * Content-Length declares more, and while reading when there is none (chunked) or it lies.
 */
export async function readBodyBytes(
  req: Request,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON body within `maxBytes`: malformed JSON is the caller's mistake; U+0000 is dropped from every string. */
export async function readJsonValue(req: Request, maxBytes = jsonBodyLimitBytes()): Promise<unknown> {
  const body = await readBodyBytes(
    req,
    maxBytes,
    () =>
      new AppError(
        "payload_too_large",
        `The request body exceeds the ${kib(maxBytes)} limit for JSON requests.`,
      ),
  );
  return parseJsonBytes(body);
}

/** JSON text as a value, U+0000 dropped from every string (lib/nul.ts); invalid JSON is a 400. */
export function parseJsonBytes(body: Uint8Array): unknown {
  try {
    return stripNulDeep(JSON.parse(new TextDecoder().decode(body)));
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
}

/** Reads and validates a JSON body; too large, malformed JSON and schema violations are caller mistakes. */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  return validated(schema, await readJsonValue(req));
}

/** The value checked against `schema`; a violation is a 422 naming each issue. */
export function validated<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`);
    throw new AppError("validation_failed", `Invalid request: ${issues.join("; ")}`, { details: issues });
  }
  return parsed.data;
}

function kib(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}
