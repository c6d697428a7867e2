/** Sends a JSON request; throws the API's error message ({"error":{"message"}}) on failure. */
export async function api<T>(url: string, init?: { method: string; body: unknown }): Promise<T> {
  const r = await fetch(url, {
    method: init?.method ?? "GET",
    headers: init ? { "content-type": "application/json" } : undefined,
    body: init ? JSON.stringify(init.body) : undefined,
    cache: "no-store",
  });
  const body = await r.json().catch(() => null);
  if (!r.ok) throw new Error(body?.error?.message ?? `HTTP ${r.status}`);
  return body as T;
}

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
