import { readResponse } from "../read-response";

/** Sends a JSON request; throws the API's error message ({"error":{"message"}}) on failure. */
export async function api<T>(url: string, init?: { method: string; body: unknown }): Promise<T> {
  const r = await fetch(url, {
    method: init?.method ?? "GET",
    headers: init ? { "content-type": "application/json" } : undefined,
    body: init ? JSON.stringify(init.body) : undefined,
    cache: "no-store",
  });
  return readResponse<T>(r);
}
