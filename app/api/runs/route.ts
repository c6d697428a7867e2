import { getDb } from "@/db/client";
import { createRunWithEvent, listRunsForOwner } from "@/db/queries/runs";
import { AppError } from "@/lib/errors";
import { handle, readJson } from "@/lib/http";
import { requireConfiguredModels } from "@/lib/server/model-config";
import { currentOwner } from "@/lib/server/owner";
import { createRunSchema } from "@/lib/server/run-settings";
import { runSummary } from "@/lib/server/run-view";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req);
  const rows = await listRunsForOwner(await getDb(), owner);
  return Response.json({ runs: rows.map(runSummary) });
});

export const POST = handle(async (req: Request) => {
  const input = await readJson(req, createRunSchema);
  requireConfiguredModels();
  const owner = await currentOwner(req);
  const run = await createRunWithEvent(await getDb(), { ownerId: owner, ...input });
  if (!run) throw new AppError("internal", "The run could not be created.");
  return Response.json({ id: run.id }, { status: 201 });
});
