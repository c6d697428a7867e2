import { getDatabase, pingDatabase } from "../../db/client.ts";
import { type ModelConfigStatus, modelConfigStatus } from "../ai/config-status.ts";

export interface HealthReport {
  status: "ok" | "degraded";
  database: { ok: boolean; kind: "pglite" | "postgres" | null; error?: string };
  /** Which model roles are usable; an unconfigured model does not make the app unhealthy. */
  models: Pick<ModelConfigStatus, "configured" | "unconfigured" | "problems" | "help"> & {
    roles: { role: string; configured: boolean; model?: string; source?: string }[];
  };
  time: string;
}

/** Liveness plus database reachability and model configuration; failures are reported, never thrown. */
export async function checkHealth(): Promise<HealthReport> {
  const time = new Date().toISOString();
  const m = modelConfigStatus(process.env);
  const models = {
    configured: m.configured,
    unconfigured: m.unconfigured,
    problems: m.problems,
    help: m.help,
    roles: m.roles.map((r) => ({ role: r.role, configured: r.configured, model: r.model, source: r.source })),
  };
  try {
    const handle = await getDatabase();
    await pingDatabase(handle);
    return { status: "ok", database: { ok: true, kind: handle.kind }, models, time };
  } catch (e) {
    const kind = process.env.DATABASE_URL ? "postgres" : "pglite";
    const error = e instanceof Error ? e.message : String(e);
    return { status: "degraded", database: { ok: false, kind, error }, models, time };
  }
}
