import { handle } from "@/lib/http";
import { listAccounts } from "@/lib/server/accounts/list";
import { requireAdmin } from "@/lib/server/auth/caller";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Every account: name, email, role, whether disabled, when made — nothing it owns. Admins only (404 otherwise). */
export const GET = handle(async (req: Request) => {
  await requireAdmin(req, "admin");
  return Response.json({ users: await listAccounts(await serverRuntime()) });
});
