import { notFound } from "next/navigation";
import { z } from "zod";
import { RunDashboard } from "@/components/run-dashboard";
import { getRunForOwner } from "@/db/queries/runs";
import { getRuntime } from "@/lib/jobs/runtime";
import { currentOwner } from "@/lib/server/owner";
import { runView } from "@/lib/server/run-view";

export const dynamic = "force-dynamic";

export default async function RunPage({ params }: PageProps<"/runs/[id]">) {
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  const db = (await getRuntime()).handle.db;
  const run = await getRunForOwner(db, id, await currentOwner());
  if (!run) notFound();
  const view = JSON.parse(JSON.stringify(await runView(db, run)));
  return <RunDashboard initial={view} />;
}
