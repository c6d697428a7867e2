import { handle } from "@/lib/http";
import { authorizeMetrics, metricsResponse } from "@/lib/server/operations/metrics";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Prometheus text: this process's series and the database's whole figures (admin or METRICS_TOKEN). */
export const GET = handle(async (req: Request) => {
  await authorizeMetrics(req);
  return metricsResponse((await serverRuntime()).handle.db);
});
