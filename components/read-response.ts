/** Reads a response's JSON; throws the API's error message ({"error":{"message"}}) on failure. */
export async function readResponse<T>(r: Response): Promise<T> {
  const body = r.status === 204 ? null : await r.json().catch(() => null);
  if (!r.ok) throw new Error(body?.error?.message ?? `HTTP ${r.status}`);
  return body as T;
}

/** What to show a person for a failed request. */
export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
