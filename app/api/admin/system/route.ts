import { handle } from "@/lib/http";
import { requireAdmin } from "@/lib/server/auth/caller";
import { systemOverview } from "@/lib/server/operations/system";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Runs in progress and waiting, recent failures, model error rates, cost per day. Admins only (404 otherwise). */
export const GET = handle(async (req: Request) => {
  await requireAdmin(req, "admin");
  return Response.json(await systemOverview(await serverRuntime()));
});
