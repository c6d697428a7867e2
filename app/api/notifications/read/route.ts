import { handle, readJson, validated } from "@/lib/http";
import { markNotificationsReadFor, markReadSchema } from "@/lib/server/notifications/notifications";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Marks your notices read: the given `ids`, or all of them. */
export const POST = handle(async (req: Request) => {
  const owner = await currentOwner(req, "research");
  const input =
    req.headers.get("content-length") === "0"
      ? validated(markReadSchema, {})
      : await readJson(req, markReadSchema);
  return Response.json(await markNotificationsReadFor(await serverRuntime(), owner, input));
});
