import { useTranslations } from "next-intl";
import type { SharedQuestion, SharedSource } from "@/lib/server/shares/view";
import { Markdown } from "../markdown";
import { CitationCards } from "../report/citation-cards";
import { citationCards } from "../report/citation-data";
import { remarkRedactPrivateSources } from "./redact-private-sources";

/**
 * The run's follow-up questions under a shared report, when the owner included them: each answer
 * with its citation markers and the same cards as the report's. An answer is short, so its cards
 * carry their passages (already redacted on the server: none of a private document) and open
 * without a request; links to private documents lose their URL as in the report.
 */
export function SharedThread({
  thread,
  sources,
  privateSourceUrls,
  privateDocument,
}: {
  thread: SharedQuestion[];
  sources: SharedSource[];
  privateSourceUrls: string[];
  /** "private document" in the report's language (the answers are in it too). */
  privateDocument: string;
}) {
  const t = useTranslations("questions");
  const shared = useTranslations("share.thread");
  if (!thread.length) return null;
  return (
    <section
      aria-label={t("thread")}
      data-testid="shared-thread"
      className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 className="text-lg font-semibold">{t("thread")}</h2>
      <ol className="space-y-4">
        {thread.map((q) => {
          const citations = { cards: citationCards(q.citations, sources) };
          return (
            <li key={q.id} data-testid="question" data-status={q.status} className="space-y-2">
              <p className="font-medium">
                <span className="sr-only">{t("you")}: </span>
                {q.question}
              </p>
              {q.status === "answered" && q.answer ? (
                <div data-testid="answer">
                  <CitationCards citations={citations}>
                    <Markdown
                      citations={citations}
                      remarkPlugins={[
                        [remarkRedactPrivateSources, { privateUrls: privateSourceUrls, privateDocument }],
                      ]}
                    >
                      {q.answer}
                    </Markdown>
                  </CitationCards>
                </div>
              ) : (
                <p className="text-sm text-muted">
                  {q.status === "not_in_sources"
                    ? t("notInSources")
                    : q.status === "failed"
                      ? shared("failed")
                      : shared("pending")}
                </p>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
