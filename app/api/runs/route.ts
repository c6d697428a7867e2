import { listRunsForOwner } from "@/db/queries/runs";
import { handle, readJson } from "@/lib/http";
import { getRuntime } from "@/lib/jobs/runtime";
import { requireConfiguredModels } from "@/lib/server/model-config";
import { currentOwner } from "@/lib/server/owner";
import { createAndEnqueueRun } from "@/lib/server/run-actions";
import { createRunSchema } from "@/lib/server/run-settings";
import { runSummary } from "@/lib/server/run-view";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req);
  const { handle: database } = await getRuntime();
  const rows = await listRunsForOwner(database.db, owner);
  return Response.json({ runs: rows.map(runSummary) });
});

export const POST = handle(async (req: Request) => {
  const input = await readJson(req, createRunSchema);
  requireConfiguredModels();
  const owner = await currentOwner(req);
  const run = await createAndEnqueueRun(await getRuntime(), { ownerId: owner, ...input });
  return Response.json({ id: run.id, status: run.status }, { status: 201 });
});
