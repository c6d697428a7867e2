import { SetupStatus } from "@/components/setup-status";
import { checkHealth } from "@/lib/server/health";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const health = await checkHealth();
  return (
    <div className="space-y-8">
      <section className="space-y-3">
        <h1 className="text-3xl font-semibold tracking-tight">Ask a research question</h1>
        <p className="max-w-2xl text-zinc-600 dark:text-zinc-400">
          A supervisor agent writes a research brief, sends parallel researchers to search and read, checks what
          each part of the question is still missing, and writes a long report in which every citation points to a
          source that was really fetched and stored.
        </p>
      </section>
      <SetupStatus health={health} />
    </div>
  );
}
