import { getDatabase, pingDatabase } from "../../../db/client.ts";
import { type ModelConfigStatus, modelConfigStatus } from "../../ai/config-status.ts";
import type { Env } from "../../env.ts";
import { effectiveConfig } from "../../jobs/settings/effective-config.ts";
import { log } from "../../telemetry/log.ts";

export interface HealthReport {
  status: "ok" | "degraded";
  database: { ok: boolean; kind: "pglite" | "postgres" | null };
  /** Which model roles are usable; an unconfigured model does not make the app unhealthy. */
  models: Pick<ModelConfigStatus, "configured" | "unconfigured" | "problems" | "help"> & {
    roles: { role: string; configured: boolean; model?: string; source?: string }[];
  };
  time: string;
}

/** What GET /api/health tells anyone who asks: up or not, and nothing that names a host or a setting. */
export interface PublicHealth {
  status: "ok" | "degraded";
  database: "ok" | "unreachable";
}

/**
 * Liveness plus database reachability and model configuration, for the operator's setup page.
 * Failures are reported, never thrown; why the database is unreachable goes to the server log
 * only, since its message can name hosts, users and ports.
 */
export async function checkHealth(): Promise<HealthReport> {
  const time = new Date().toISOString();
  try {
    const handle = await getDatabase();
    await pingDatabase(handle);
    // The models as the settings page sets them over the environment.
    const env = await effectiveConfig(handle.db, process.env).then(
      (c) => c.env,
      (e) => {
        log("server").error({ err: e }, "health check: the stored settings cannot be read");
        return process.env;
      },
    );
    return { status: "ok", database: { ok: true, kind: handle.kind }, models: modelsReport(env), time };
  } catch (e) {
    log("server").error({ err: e }, "health check: the database is unreachable");
    const kind = process.env.DATABASE_URL ? "postgres" : "pglite";
    return { status: "degraded", database: { ok: false, kind }, models: modelsReport(process.env), time };
  }
}

function modelsReport(env: Env): HealthReport["models"] {
  const m = modelConfigStatus(env);
  return {
    configured: m.configured,
    unconfigured: m.unconfigured,
    problems: m.problems,
    help: m.help,
    roles: m.roles.map((r) => ({ role: r.role, configured: r.configured, model: r.model, source: r.source })),
  };
}

/** The anonymous health answer: the report cut down to up-or-not. */
export async function publicHealth(): Promise<PublicHealth> {
  const report = await checkHealth();
  return { status: report.status, database: report.database.ok ? "ok" : "unreachable" };
}
