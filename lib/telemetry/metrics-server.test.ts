// A worker's METRICS_PORT endpoint: this process's series for the scraper's METRICS_TOKEN only.
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { recordModelCall } from "./metrics.ts";
import { metricsPortFromEnv, startMetricsServer } from "./metrics-server.ts";

const TOKEN = "worker-scrape-token-abcdef";

describe("startMetricsServer", () => {
  it("answers the token's holder with Prometheus text and refuses everyone else", async () => {
    recordModelCall({ provider: "openai", role: "compression", seconds: 0.4, outcome: "ok", costUsd: 0.002 });
    const server = await startMetricsServer({ METRICS_PORT: "0", METRICS_TOKEN: TOKEN });
    if (!server) throw new Error("the metrics server did not start");
    try {
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/metrics`;
      const ok = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toMatch(/^text\/plain/);
      const body = await ok.text();
      expect(body).toContain(
        'deep_research_model_calls_total{provider="openai",role="compression",outcome="ok"} 1',
      );
      expect(body).toContain(
        'deep_research_model_cost_usd_total{provider="openai",role="compression"} 0.002',
      );
      expect(body).toContain("nodejs_eventloop_lag_seconds");

      const anonymous = await fetch(url);
      expect(anonymous.status).toBe(401);
      expect((await anonymous.json()).error.code).toBe("unauthorized");
      const wrong = await fetch(url, { headers: { authorization: "Bearer nope" } });
      expect(wrong.status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      server.close();
    }
  });

  it("stays off without METRICS_PORT, and without METRICS_TOKEN", async () => {
    expect(await startMetricsServer({})).toBeUndefined();
    expect(await startMetricsServer({ METRICS_PORT: "0" })).toBeUndefined();
    expect(() => metricsPortFromEnv({ METRICS_PORT: "http" })).toThrow("METRICS_PORT");
  });
});
