import { handle } from "@/lib/http";
import { requireAdmin } from "@/lib/server/auth/caller";
import { auditLog } from "@/lib/server/operations/audit";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** The audit log every admin sees: backups and password resets, newest first. Admins only (404 otherwise). */
export const GET = handle(async (req: Request) => {
  await requireAdmin(req, "admin");
  return Response.json({ entries: await auditLog(await serverRuntime()) });
});
