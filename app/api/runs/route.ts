import { handle, readJson } from "@/lib/http";
import { requireCaller } from "@/lib/server/auth/caller";
import { currentOwner } from "@/lib/server/owner";
import { rateLimitKey } from "@/lib/server/rate-limits";
import { createRunSchema } from "@/lib/server/runs/input";
import { startRun } from "@/lib/server/runs/start";
import { listRunSummaries } from "@/lib/server/runs/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req, "read");
  // ?q= keeps the runs whose question contains the text (the home page's search uses the same).
  const query = new URL(req.url).searchParams.get("q") ?? undefined;
  return Response.json({ runs: await listRunSummaries(await serverRuntime(), owner, undefined, { query }) });
});

export const POST = handle(async (req: Request) => {
  const caller = await requireCaller(req, "research");
  const input = await readJson(req, createRunSchema);
  const run = await startRun(await serverRuntime(), { caller, rateLimitKey: await rateLimitKey(req) }, input);
  return Response.json(
    { id: run.id, status: run.status, queuePosition: run.queuePosition, warnings: run.warnings },
    { status: 201 },
  );
});
