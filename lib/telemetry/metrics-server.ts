/**
 * A worker's own /metrics endpoint (node:http on METRICS_PORT): this process's series, for a
 * scraper that presents METRICS_TOKEN. Without METRICS_TOKEN it is not started: a worker's
 * figures are not for anonymous readers.
 */
import { createServer, type Server } from "node:http";
import { log } from "./log.ts";
import { metricsText } from "./metrics.ts";
import { carriesMetricsToken, metricsTokenFromEnv } from "./metrics-auth.ts";

type Env = Readonly<Record<string, string | undefined>>;

export function metricsPortFromEnv(env: Env = process.env): number | undefined {
  const raw = env.METRICS_PORT?.trim();
  if (!raw) return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`METRICS_PORT must be a port number 0..65535 (got "${raw}")`);
  return port;
}

function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/** Starts the server when METRICS_PORT is set; resolves it (listening) or undefined. */
export async function startMetricsServer(env: Env = process.env): Promise<Server | undefined> {
  const port = metricsPortFromEnv(env);
  if (port === undefined) return undefined;
  if (!metricsTokenFromEnv(env)) {
    log("metrics").error("METRICS_PORT is set but METRICS_TOKEN is not: the metrics endpoint stays off");
    return undefined;
  }
  const server = createServer(async (req, res) => {
    if (req.method !== "GET" || !(req.url === "/metrics" || req.url?.startsWith("/metrics?"))) {
      res.writeHead(404, { "content-type": "application/json" }).end(errorBody("not_found", "Not found."));
      return;
    }
    if (!carriesMetricsToken(req.headers.authorization, env)) {
      res
        .writeHead(401, { "content-type": "application/json" })
        .end(errorBody("unauthorized", "Present METRICS_TOKEN as a bearer token."));
      return;
    }
    try {
      const { contentType, body } = await metricsText();
      res.writeHead(200, { "content-type": contentType }).end(body);
    } catch (e) {
      log("metrics").error({ err: e }, "metrics could not be collected");
      res
        .writeHead(500, { "content-type": "application/json" })
        .end(errorBody("internal", "Metrics failed."));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => resolve());
  });
  const address = server.address();
  log("metrics").info(
    { port: typeof address === "object" ? address?.port : port },
    "metrics endpoint listening",
  );
  return server;
}
