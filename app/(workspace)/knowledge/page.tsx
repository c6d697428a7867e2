import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { type KnowledgeEntryView, KnowledgeReview } from "@/components/knowledge-review";
import { pageCaller } from "@/lib/server/auth/page";
import { knowledgeEntries } from "@/lib/server/knowledge/list";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("knowledge");
  return { title: t("metaTitle") };
}

export default async function KnowledgePage() {
  const t = await getTranslations("knowledge");
  const caller = await pageCaller();
  const entries = await knowledgeEntries(await serverRuntime(), caller.userId);
  const initial: KnowledgeEntryView[] = JSON.parse(JSON.stringify(entries));

  return (
    <div className="space-y-6">
      <section className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="max-w-2xl text-muted">{t("intro")}</p>
      </section>
      <KnowledgeReview initial={initial} isAdmin={caller.role === "admin"} />
    </div>
  );
}
