/**
 * Requests from the account forms. better-auth's routes (/api/auth/*) answer errors as
 * {message, code}; ours as {error: {code, message}}. Either way the form gets one readable sentence.
 */

/** Clearer words for the better-auth errors a person most often meets. */
const friendlier: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Wrong email or password.",
  INVALID_PASSWORD: "The current password is not right.",
  BANNED_USER: "This account is disabled. Ask an admin to enable it.",
  PASSWORD_TOO_SHORT: "The password is too short: use at least 8 characters.",
  PASSWORD_TOO_LONG: "The password is too long: use at most 256 characters.",
  USER_ALREADY_EXISTS: "An account with this email address already exists. Sign in instead.",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL:
    "An account with this email address already exists. Sign in instead.",
  YOU_CANNOT_BAN_YOURSELF: "You cannot disable your own account.",
};

interface ErrorBody {
  code?: string;
  message?: string;
  error?: { code?: string; message?: string };
}

export function messageOf(status: number, body: ErrorBody | null): string {
  if (status === 429) return "Too many attempts. Wait a minute, then try again.";
  const code = body?.error?.code ?? body?.code;
  const message = body?.error?.message ?? body?.message;
  return (code && friendlier[code]) || message || `The request failed (HTTP ${status}).`;
}

/** Sends JSON and returns the JSON answer; throws an Error whose message is fit to show. */
export async function sendJson<T>(url: string, method: string, body?: unknown): Promise<T> {
  let r: Response;
  try {
    r = await fetch(url, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new Error("The server could not be reached. Check the connection and try again.");
  }
  const parsed = r.status === 204 ? null : await r.json().catch(() => null);
  if (!r.ok) throw new Error(messageOf(r.status, parsed));
  return parsed as T;
}

/** POST to one of better-auth's routes, e.g. authPost("/sign-in/email", {email, password}). */
export const authPost = <T = unknown>(path: string, body: unknown = {}) =>
  sendJson<T>(`/api/auth${path}`, "POST", body);

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
