import { handle } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { openRunEventStream } from "@/lib/server/runs/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/events">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const url = new URL(req.url);
  const stream = await openRunEventStream(await serverRuntime(), id, await currentOwner(req, "read"), {
    cursor: req.headers.get("last-event-id") ?? url.searchParams.get("after") ?? "0",
    signal: req.signal,
    deltas: url.searchParams.get("deltas") === "1",
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
