/**
 * The settings page's "Test" button: one minimal call to a model provider, then one structured
 * output and one tool call with the run's own schemas (schema-probe.ts), through the same
 * provider factory runs use, with the key and base URL being edited (or the effective ones when the
 * field is left empty). The answer is a sentence either way: "Works (model x answered, and took a structured output and a tool call, in 212 ms)",
 * or what went wrong in words (the key refused, the server unreachable, the model unknown). A
 * configured base URL is trusted configuration, so it is called directly (no SSRF guard); a newly
 * typed one is not yet trusted with the saved key: it gets the key typed with it, or none.
 */
import { APICallError, generateText } from "ai";
import { z } from "zod";
import { BASE_URL_VARIABLE, builtinProviderFactory, providerBaseUrl } from "../../ai/providers.ts";
import { resolveRole } from "../../ai/resolve.ts";
import { ROLES } from "../../ai/roles.ts";
import type { Env } from "../../env.ts";
import { providerKeyVariable } from "../../jobs/settings/effective-config.ts";
import { httpUrlSchema, modelProviders } from "../../jobs/settings/schema.ts";
import { probeSchemas } from "./schema-probe.ts";

const blankIsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const providerTestSchema = z.strictObject({
  provider: z.enum(modelProviders),
  /** The model id to ask (without the provider prefix); defaults to one a role uses with this provider. */
  model: z.preprocess(blankIsUnset, z.string().trim().max(200).optional()),
  key: z.preprocess(blankIsUnset, z.string().trim().max(1000).optional()),
  baseUrl: z.preprocess(blankIsUnset, httpUrlSchema.optional()),
});
export type ProviderTest = z.infer<typeof providerTestSchema>;

export type ProviderTestResult = { ok: boolean; message: string; ms?: number };

const DEFAULT_TIMEOUT_MS = 15_000;

export async function testProvider(
  t: ProviderTest,
  effective: Env,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<ProviderTestResult> {
  const keyVariable = providerKeyVariable[t.provider];
  const newAddress = t.baseUrl !== undefined && !sameUrl(t.baseUrl, providerBaseUrl(t.provider, effective));
  if (newAddress && !t.key && t.provider !== "openai-compatible") {
    return {
      ok: false,
      message:
        "Type the API key to test a new base URL: a saved key is never sent to an address it was not saved for.",
    };
  }
  const env: Env = {
    ...effective,
    // A local server at a new address is tried without a key unless one is typed.
    ...(newAddress || t.key ? { [keyVariable]: t.key } : {}),
    ...(t.baseUrl ? { [BASE_URL_VARIABLE[t.provider]]: t.baseUrl } : {}),
  };
  const model = t.model ?? modelInUse(t.provider, env);
  const started = Date.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    if (!model) {
      if (t.provider !== "openai-compatible") {
        return { ok: false, message: "Name a model to test with (no role uses this provider yet)." };
      }
      const count = await listModels(env, signal);
      const ms = Date.now() - started;
      return {
        ok: true,
        ms,
        message: `Works (the server lists ${count} model${count === 1 ? "" : "s"}, in ${ms} ms)`,
      };
    }
    const instance = builtinProviderFactory(t.provider, env)(model);
    await generateText({
      model: instance,
      prompt: "Reply with OK.",
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: signal,
    });
    const refusal = await probeSchemas(instance, signal);
    const ms = Date.now() - started;
    if (refusal) {
      const why = failureMessage(refusal.error, t.provider, model, env, timeoutMs);
      const message = `Model ${model} answers, but refused ${refusal.what}: runs will fall back. ${why}`;
      return { ok: false, ms, message: scrub(message, env[keyVariable]) };
    }
    return {
      ok: true,
      ms,
      message: `Works (model ${model} answered, and took a structured output and a tool call, in ${ms} ms)`,
    };
  } catch (e) {
    const secret = env[keyVariable];
    return { ok: false, message: scrub(failureMessage(e, t.provider, model, env, timeoutMs), secret) };
  }
}

const sameUrl = (a: string, b: string | undefined) => a.replace(/\/+$/, "") === (b ?? "").replace(/\/+$/, "");

/** The model id a role resolves to with this provider, if any does. */
function modelInUse(provider: string, env: Env): string | undefined {
  for (const role of ROLES) {
    const r = resolveRole(role, { env });
    if (r.spec?.provider === provider) return r.spec.modelId;
  }
  return undefined;
}

async function listModels(env: Env, signal: AbortSignal): Promise<number> {
  const base = (env.OPENAI_COMPATIBLE_BASE_URL ?? "").trim().replace(/\/+$/, "");
  if (!base) throw new Error("set the server's base URL first");
  const key = env.OPENAI_COMPATIBLE_API_KEY?.trim();
  const res = await fetch(`${base}/models`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    signal,
    redirect: "error",
  });
  if (!res.ok) {
    throw new APICallError({
      message: (await res.text()).slice(0, 300),
      url: `${base}/models`,
      requestBodyValues: {},
      statusCode: res.status,
    });
  }
  const body = (await res.json().catch(() => ({}))) as { data?: unknown[] };
  return Array.isArray(body.data) ? body.data.length : 0;
}

function causeCode(e: unknown): string | undefined {
  for (let c: unknown = e, depth = 0; c && depth < 6; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

function failureMessage(
  e: unknown,
  provider: string,
  model: string | undefined,
  env: Env,
  timeoutMs: number,
): string {
  const custom = env[BASE_URL_VARIABLE[provider as keyof typeof BASE_URL_VARIABLE]];
  const where = custom ?? (provider === "openai-compatible" ? "the server" : provider);
  const name = (e as { name?: string })?.name;
  if (name === "TimeoutError" || name === "AbortError") {
    return `No answer from ${where} within ${Math.round(timeoutMs / 1000)} s.`;
  }
  const code = causeCode(e);
  if (code === "ECONNREFUSED")
    return `Cannot reach ${where}: the connection was refused (is the server running?).`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `Cannot reach ${where}: the host name does not resolve.`;
  if (code && /^(ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/.test(code)) {
    return `Cannot reach ${where} (${code}).`;
  }
  if (APICallError.isInstance(e) && e.statusCode !== undefined) {
    const detail = e.message ? ` The provider said: ${e.message.slice(0, 200)}` : "";
    if (e.statusCode === 401 || e.statusCode === 403) {
      return `The key was refused (HTTP ${e.statusCode}): check the API key.${detail}`;
    }
    if (e.statusCode === 404) {
      return `Not found (HTTP 404): the model ${model ?? ""} is unknown to ${where}, or the base URL is wrong.${detail}`;
    }
    if (e.statusCode === 429) return `Rate limited or out of credit (HTTP 429).${detail}`;
    return `The provider answered HTTP ${e.statusCode}.${detail}`;
  }
  const message = e instanceof Error ? e.message : String(e);
  if (APICallError.isInstance(e)) return `Cannot reach ${where}: ${message}`;
  return `The test call failed: ${message}`;
}

/** The key must never reach the page, even when a provider echoes it in an error. */
function scrub(message: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? message.split(secret).join("…") : message;
}
