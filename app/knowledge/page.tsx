import type { Metadata } from "next";
import { type KnowledgeItemView, KnowledgeReview } from "@/components/knowledge-review";
import { listKnowledge } from "@/db/queries/knowledge";
import { runQuestionsForOwner } from "@/db/queries/runs";
import { getRuntime } from "@/lib/jobs/runtime";
import { currentOwner } from "@/lib/server/owner";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Knowledge · Deep Research" };

export default async function KnowledgePage() {
  const db = (await getRuntime()).handle.db;
  const owner = await currentOwner();
  const items = await listKnowledge(db, owner);
  const runIds = [...new Set(items.flatMap((i) => (i.runId ? [i.runId] : [])))];
  const runQuestions = await runQuestionsForOwner(db, owner, runIds);
  const initial: KnowledgeItemView[] = JSON.parse(JSON.stringify(items));

  return (
    <div className="space-y-6">
      <section className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Knowledge base</h1>
        <p className="max-w-2xl text-zinc-600 dark:text-zinc-400">
          What earlier research learned. Items extracted from reports start as provisional and wait for your
          review: approve them to make them established — established items relevant to a new question are
          given to its brief and supervisor — or reject them to deprecate them.
        </p>
      </section>
      <KnowledgeReview initial={initial} runQuestions={runQuestions} />
    </div>
  );
}
