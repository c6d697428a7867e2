import { handle } from "@/lib/http";
import { listMyNotifications } from "@/lib/server/notifications/notifications";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Your notices, newest first, with the unread count. */
export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req, "read");
  return Response.json(await listMyNotifications(await serverRuntime(), owner));
});
