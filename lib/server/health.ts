import { getDatabase, pingDatabase } from "../../db/client.ts";

export interface HealthReport {
  status: "ok" | "degraded";
  database: { ok: boolean; kind: "pglite" | "postgres" | null; error?: string };
  time: string;
}

/** Liveness plus database reachability; a reachability failure is reported, never thrown. */
export async function checkHealth(): Promise<HealthReport> {
  const time = new Date().toISOString();
  try {
    const handle = await getDatabase();
    await pingDatabase(handle);
    return { status: "ok", database: { ok: true, kind: handle.kind }, time };
  } catch (e) {
    const kind = process.env.DATABASE_URL ? "postgres" : "pglite";
    const error = e instanceof Error ? e.message : String(e);
    return { status: "degraded", database: { ok: false, kind, error }, time };
  }
}
