/**
 * What a tool answers: JSON text on success, and on failure a tool result marked `isError` with a
 * sentence a person (or an agent) can act on. A caller's mistake is never a protocol failure: the
 * model reading the result should see "No research run with that id", not a JSON-RPC error.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError, callerErrorFromDatabase } from "../../errors.ts";

/** Another person's run reads exactly like a missing one: ids do not leak existence. */
export const NO_SUCH_RUN = "No research run with that id.";

export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }] };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** The readable sentence for a failure; unexpected errors are logged and never shown. */
export function errorMessage(error: unknown, notFound = NO_SUCH_RUN): string {
  const e = error instanceof AppError ? error : (callerErrorFromDatabase(error) ?? error);
  if (!(e instanceof AppError)) {
    console.error("unhandled error in an MCP tool", e);
    return "Something went wrong on the server. The error was logged; try again later.";
  }
  if (e.code === "not_found") return notFound;
  if (e.code === "rate_limited") return `Limit reached: ${e.message}`;
  if (e.code === "not_configured") return `The server is not configured for this: ${e.message}`;
  if (e.code === "conflict") return `Not possible now: ${e.message}`;
  return e.message;
}

/** Runs a tool body; every failure becomes an `isError` result. */
export async function toolCall(
  body: () => Promise<CallToolResult>,
  notFound?: string,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (e) {
    return toolError(errorMessage(e, notFound));
  }
}
