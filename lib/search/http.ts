import { fetch as undiciFetch } from "undici";
import type { z } from "zod";
import { SearchProviderError } from "./errors.ts";
import { htmlToPlain, truncate } from "./text.ts";
import type { FetchLike } from "./types.ts";

export const defaultFetch: FetchLike = undiciFetch;

/** Provider answers are bounded: a misbehaving endpoint must not exhaust memory. */
const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

export interface JsonRequest {
  provider: string;
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  fetch: FetchLike;
  /** Variable holding the credential, named in 401/403 messages. */
  credentialVariable?: string;
}

/**
 * One JSON request to a provider. Non-2xx answers become a SearchProviderError carrying the status
 * and the provider's own error text; an aborted signal rethrows its reason untouched so callers
 * can tell cancellation from failure.
 */
export async function requestJson<S extends z.ZodType>(req: JsonRequest, schema: S): Promise<z.infer<S>> {
  let res: Awaited<ReturnType<FetchLike>>;
  try {
    res = await req.fetch(req.url, {
      method: req.method,
      headers: {
        accept: "application/json",
        ...(req.body === undefined ? {} : { "content-type": "application/json" }),
        ...req.headers,
      },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: req.signal,
    });
  } catch (e) {
    if (req.signal?.aborted) throw req.signal.reason;
    throw new SearchProviderError(req.provider, `request failed: ${networkReason(e)}`, { cause: e });
  }
  const text = await readCapped(res, req);
  if (!res.ok) {
    const detail = errorDetail(text);
    const hint = statusHint(res.status, req.credentialVariable);
    throw new SearchProviderError(
      req.provider,
      `HTTP ${res.status}${detail ? `: ${detail}` : ""}${hint ? ` (${hint})` : ""}`,
      { status: res.status },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const type = res.headers.get("content-type") ?? "no content type";
    throw new SearchProviderError(req.provider, `answered with invalid JSON (${type})`, {
      status: res.status,
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "body";
    throw new SearchProviderError(req.provider, `unexpected response shape at ${where}: ${issue?.message}`, {
      status: res.status,
    });
  }
  return parsed.data;
}

async function readCapped(res: Awaited<ReturnType<FetchLike>>, req: JsonRequest): Promise<string> {
  try {
    if (!res.body) return "";
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.byteLength;
      if (size > MAX_RESPONSE_BYTES) {
        await res.body.cancel().catch(() => {});
        throw new SearchProviderError(req.provider, `response larger than ${MAX_RESPONSE_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString("utf8");
  } catch (e) {
    if (req.signal?.aborted) throw req.signal.reason;
    if (e instanceof SearchProviderError) throw e;
    throw new SearchProviderError(req.provider, `reading the response failed: ${networkReason(e)}`, {
      cause: e,
    });
  }
}

function networkReason(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause as { code?: string; message?: string } | undefined;
  return cause?.code ?? cause?.message ?? e.message;
}

/** The provider's own error words from the usual JSON error shapes, else the body as plain text. */
export function errorDetail(body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return truncate(htmlToPlain(body), 300);
  }
  const found = pickMessage(json);
  return truncate(found ?? body, 300);
}

function pickMessage(v: unknown, depth = 0): string | undefined {
  if (typeof v === "string") return v || undefined;
  if (!v || typeof v !== "object" || depth > 3) return undefined;
  const o = v as Record<string, unknown>;
  // Tavily: {detail:{error}}; Exa: {error, tag}; Brave: {error:{code, detail}}; others: {message}.
  for (const key of ["detail", "error", "message", "msg"]) {
    const m = pickMessage(o[key], depth + 1);
    if (m) return typeof o.code === "string" && depth > 0 ? `${o.code}: ${m}` : m;
  }
  return undefined;
}

function statusHint(status: number, credentialVariable: string | undefined): string | undefined {
  if ((status === 401 || status === 403) && credentialVariable) return `check ${credentialVariable}`;
  if (status === 429) return "rate limit or quota exceeded";
  return undefined;
}
