/**
 * What a server action answers its form with. The browser's forms post to server actions (one
 * implementation per action: each calls the same lib/server function as its route handler), and
 * `useActionState` shows the answer. Errors a person can act on come back as state, not as a thrown
 * error page; Next.js's own redirect/notFound signals pass through untouched.
 */
import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { AppError, callerErrorFromDatabase, type ErrorCode, isAppError } from "../../errors.ts";
import { stripNul, stripNulDeep } from "../../nul.ts";

export type ActionState =
  | { status: "idle" }
  | { status: "ok"; message: string; data?: Record<string, unknown> }
  | { status: "error"; code: ErrorCode; message: string; fieldErrors?: Record<string, string[]> };

export const idleState: ActionState = { status: "idle" };

export function okState(message: string, data?: Record<string, unknown>): ActionState {
  return { status: "ok", message, ...(data ? { data } : {}) };
}

/** Runs an action body; an AppError or a validation error becomes the error state the form shows. */
export async function runAction(body: () => Promise<ActionState>): Promise<ActionState> {
  try {
    return await body();
  } catch (error) {
    unstable_rethrow(error);
    const known = isAppError(error) ? error : callerErrorFromDatabase(error);
    if (known) return { status: "error", code: known.code, message: known.message };
    if (error instanceof z.ZodError) return validationState(error);
    console.error("[deep-research] server action failed:", error);
    return { status: "error", code: "internal", message: "Something went wrong on the server. Try again." };
  }
}

/** Parses a form's fields with a zod schema; throws a ZodError the runner turns into field errors. */
export function parseForm<T extends z.ZodType>(
  schema: T,
  form: FormData | Record<string, unknown>,
): z.output<T> {
  return schema.parse(form instanceof FormData ? formFields(form) : stripNulDeep(form));
}

/**
 * A form's fields as an object: a name sent once is a string, a name sent several times an array
 * of strings; files are left out (uploads read them from the FormData themselves). Next.js's own
 * `$ACTION_*` fields are dropped, and so is U+0000 (lib/nul.ts), as from every request body.
 */
export function formFields(form: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, raw] of form.entries()) {
    if (name.startsWith("$ACTION") || typeof raw !== "string") continue;
    const key = stripNul(name);
    const value = stripNul(raw);
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

function validationState(error: z.ZodError): ActionState {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
  }
  const first = error.issues[0];
  const where = first?.path.length ? `${first.path.join(".")}: ` : "";
  return {
    status: "error",
    code: "validation_failed",
    message: `Check the form: ${where}${first?.message ?? "invalid input"}`,
    fieldErrors,
  };
}

export { AppError };
