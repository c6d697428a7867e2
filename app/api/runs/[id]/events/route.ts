import { getRunForOwner } from "@/db/queries/runs";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { getRuntime } from "@/lib/jobs/runtime";
import { runEventStream } from "@/lib/server/event-stream";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/events">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const { handle: database, bus } = await getRuntime();
  const db = database.db;
  const run = await getRunForOwner(db, id, await currentOwner(req));
  if (!run) throw new AppError("not_found", "No such run.");
  const url = new URL(req.url);
  const cursorRaw = req.headers.get("last-event-id") ?? url.searchParams.get("after") ?? "0";
  const afterSeq = Number.parseInt(cursorRaw, 10);
  if (!/^\d+$/.test(cursorRaw.trim()) || !Number.isSafeInteger(afterSeq)) {
    throw new AppError("bad_request", "Last-Event-ID / after must be a non-negative integer event seq.");
  }
  const deltas = url.searchParams.get("deltas") === "1";
  const stream = runEventStream({ db, runId: id, afterSeq, signal: req.signal, bus, deltas });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
