import { notFound } from "next/navigation";
import { z } from "zod";
import { RunDashboard } from "@/components/run-dashboard";
import { pageOwner } from "@/lib/server/owner";
import { findRunView } from "@/lib/server/runs";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export default async function RunPage({ params }: PageProps<"/runs/[id]">) {
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  const found = await findRunView(await serverRuntime(), id, await pageOwner());
  if (!found) notFound();
  const view = JSON.parse(JSON.stringify(found));
  return <RunDashboard initial={view} />;
}
