// The series the call sites feed: SSRF refusals counted where lib/fetch refuses, search outcomes per
// provider, model retries and errors by provider and role.
import { describe, expect, it } from "vitest";
import { apiError, scriptedModel, textResult } from "../../test/support/ai-mocks.ts";
import { callText } from "../ai/call.ts";
import { ModelCallError } from "../ai/errors.ts";
import { createModelRegistry } from "../ai/registry.ts";
import { FetchRefusedError, safeFetch } from "../fetch/safe-fetch.ts";
import { createSearchFromProviders } from "../search/index.ts";
import { metrics } from "./metrics.ts";

async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metric = metrics().registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const found = values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return found?.value ?? 0;
}

describe("fetch outcomes", () => {
  it("counts a refusal by the SSRF guard, by reason, and as a fetch outcome", async () => {
    const before = await value("deep_research_ssrf_refusals_total", { reason: "private_address" });
    await expect(safeFetch("http://127.0.0.1:9/admin")).rejects.toBeInstanceOf(FetchRefusedError);
    await expect(safeFetch("http://169.254.169.254/latest/meta-data")).rejects.toMatchObject({
      reason: "private_address",
    });
    expect(await value("deep_research_ssrf_refusals_total", { reason: "private_address" })).toBe(before + 2);
    await expect(safeFetch("file:///etc/passwd")).rejects.toMatchObject({ reason: "scheme" });
    expect(await value("deep_research_ssrf_refusals_total", { reason: "scheme" })).toBe(1);
    expect(await value("deep_research_fetches_total", { outcome: "private_address" })).toBe(before + 2);
  });
});

describe("search outcomes", () => {
  it("counts each provider's answer or failure", async () => {
    const search = createSearchFromProviders([
      {
        name: "good",
        search: async () => [{ url: "https://a.example/", title: "A", snippet: "", provider: "good" }],
      },
      { name: "bad", search: async () => Promise.reject(new Error("HTTP 502")) },
    ]);
    const r = await search.search("heat pumps");
    expect(r.errors).toHaveLength(1);
    expect(await value("deep_research_search_requests_total", { provider: "good", outcome: "ok" })).toBe(1);
    expect(await value("deep_research_search_requests_total", { provider: "bad", outcome: "error" })).toBe(1);
  });
});

describe("model call outcomes", () => {
  it("counts retries, and a call that failed for good as an error of its role", async () => {
    const model = scriptedModel(
      [
        apiError({ status: 503, body: "busy" }),
        textResult("fine"),
        apiError({ status: 500, body: "down" }),
        apiError({ status: 500, body: "still down" }),
      ],
      { provider: "acme", modelId: "m" },
    );
    const registry = createModelRegistry({
      env: { MODEL: "acme:m" },
      providerFactories: { acme: () => model },
      settings: { retry: { maxAttempts: 2, baseDelayMs: 1 } },
      sleep: async () => {},
    });
    const who = { provider: "acme", role: "compression" };
    expect((await callText({ registry }, "compression", { prompt: "x" })).text).toBe("fine");
    expect(await value("deep_research_model_retries_total", who)).toBe(1);
    expect(await value("deep_research_model_calls_total", { ...who, outcome: "ok" })).toBe(1);
    // Both attempts of the next call fail: one more retry, then an error of the role.
    await expect(callText({ registry }, "compression", { prompt: "y" })).rejects.toBeInstanceOf(
      ModelCallError,
    );
    expect(await value("deep_research_model_retries_total", who)).toBe(2);
    expect(await value("deep_research_model_calls_total", { ...who, outcome: "error" })).toBe(1);
    expect(await value("deep_research_model_errors_total", { ...who, error: "call" })).toBe(1);
  });
});
