import { handle } from "@/lib/http";
import { storageReport, usageReport } from "@/lib/server/accounts/usage";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/**
 * The caller's own usage and cost over the last 30 days, by day (UTC) and by model role, and what
 * they store against their quotas.
 */
export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req, "read");
  const rt = await serverRuntime();
  const [usage, storage] = await Promise.all([usageReport(rt, owner), storageReport(rt, owner)]);
  return Response.json({ ...usage, storage });
});
