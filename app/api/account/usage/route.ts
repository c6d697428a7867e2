import { handle } from "@/lib/http";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";
import { usageReport } from "@/lib/server/usage";

export const dynamic = "force-dynamic";

/** The caller's own usage and cost over the last 30 days, by day (UTC) and by model role. */
export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req, "read");
  return Response.json(await usageReport(await serverRuntime(), owner));
});
