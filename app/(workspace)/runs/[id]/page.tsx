import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { runTitle } from "@/components/run/activity-labels";
import { RunDashboard } from "@/components/run-dashboard";
import { pageOwner } from "@/lib/server/owner";
import { findRunView } from "@/lib/server/runs";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

async function loadRun(id: string) {
  if (!z.uuid().safeParse(id).success) return null;
  return findRunView(await serverRuntime(), id, await pageOwner());
}

export async function generateMetadata({ params }: PageProps<"/runs/[id]">): Promise<Metadata> {
  const found = await loadRun((await params).id);
  return { title: found ? runTitle(found.question) : "Run not found — Deep Research" };
}

export default async function RunPage({ params }: PageProps<"/runs/[id]">) {
  const found = await loadRun((await params).id);
  if (!found) notFound();
  const view = JSON.parse(JSON.stringify(found));
  return <RunDashboard initial={view} />;
}
