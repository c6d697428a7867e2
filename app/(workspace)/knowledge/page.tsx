import type { Metadata } from "next";
import { type KnowledgeEntryView, KnowledgeReview } from "@/components/knowledge-review";
import { pageCaller } from "@/lib/server/auth/page";
import { knowledgeEntries } from "@/lib/server/knowledge/list";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Knowledge · Deep Research" };

export default async function KnowledgePage() {
  const caller = await pageCaller();
  const entries = await knowledgeEntries(await serverRuntime(), caller.userId);
  const initial: KnowledgeEntryView[] = JSON.parse(JSON.stringify(entries));

  return (
    <div className="space-y-6">
      <section className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Knowledge base</h1>
        <p className="max-w-2xl text-muted">
          What earlier research learned. Items extracted from reports start as provisional and wait for your
          review: approve them to make them established — established items relevant to a new question are
          given to its brief and supervisor — or reject them to deprecate them. The same fact found by several
          runs is shown once, with every run and source it came from.
        </p>
      </section>
      <KnowledgeReview initial={initial} isAdmin={caller.role === "admin"} />
    </div>
  );
}
