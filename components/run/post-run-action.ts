/** POSTs one run action to the HTTP API; resolves to the error message, or null when it worked. */
export async function postRunAction(runId: string, path: string, body?: unknown): Promise<string | null> {
  const r = await fetch(`/api/runs/${runId}/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (r.ok) return null;
  const json = await r.json().catch(() => ({}));
  return json?.error?.message ?? `HTTP ${r.status}`;
}
