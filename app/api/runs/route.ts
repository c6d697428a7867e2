import { handle, readJson } from "@/lib/http";
import { requireCaller } from "@/lib/server/auth/caller";
import { requireConfiguredRun } from "@/lib/server/model-config";
import { currentOwner } from "@/lib/server/owner";
import { enforceRateLimit } from "@/lib/server/rate-limits";
import { createAndEnqueueRun } from "@/lib/server/run-actions";
import { createRunSchema } from "@/lib/server/run-settings";
import { listRunSummaries } from "@/lib/server/runs";
import { serverRuntime } from "@/lib/server/runtime";
import { serverEffectiveEnv } from "@/lib/server/settings/effective";
import { withCallerWebhook } from "@/lib/server/webhooks";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req);
  // ?q= keeps the runs whose question contains the text (the home page's search uses the same).
  const query = new URL(req.url).searchParams.get("q") ?? undefined;
  return Response.json({ runs: await listRunSummaries(await serverRuntime(), owner, undefined, { query }) });
});

export const POST = handle(async (req: Request) => {
  const caller = await requireCaller(req);
  const input = await readJson(req, createRunSchema);
  const rt = await serverRuntime();
  requireConfiguredRun(input.settings, await serverEffectiveEnv(rt));
  // Counted once the request could create a run: a malformed one is told so, not throttled.
  await enforceRateLimit(rt, req, "runs");
  const settings = await withCallerWebhook(rt, caller, input.settings);
  const run = await createAndEnqueueRun(rt, { ownerId: caller.userId, ...input, settings });
  return Response.json(
    { id: run.id, status: run.status, queuePosition: run.queuePosition, warnings: run.warnings },
    { status: 201 },
  );
});
