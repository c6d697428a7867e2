"use client";

import { useTranslations } from "next-intl";
import { type RefObject, useEffect, useState } from "react";

interface Heading {
  id: string;
  text: string;
  level: number;
}

/** The report's section headings (h2 and h3 with the ids remark-report gives them), read from the page. */
function useHeadings(container: RefObject<HTMLElement | null>, version: string): Heading[] {
  const [headings, setHeadings] = useState<Heading[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the report's text changes (version)
  useEffect(() => {
    const found = [...(container.current?.querySelectorAll("h2[id^='h-'], h3[id^='h-']") ?? [])].map((h) => ({
      id: h.id,
      text: h.textContent ?? "",
      level: h.tagName === "H3" ? 3 : 2,
    }));
    setHeadings(found);
  }, [container, version]);
  return headings;
}

function ContentsList({ headings, onPick }: { headings: Heading[]; onPick?: () => void }) {
  return (
    <ol className="space-y-1 text-sm">
      {headings.map((h) => (
        <li key={h.id} className={h.level === 3 ? "pl-3" : ""}>
          <a
            href={`#${h.id}`}
            onClick={onPick}
            className="block text-muted [overflow-wrap:anywhere] hover:text-inherit hover:underline"
          >
            {h.text}
          </a>
        </li>
      ))}
    </ol>
  );
}

/**
 * The report's table of contents: beside the report and sticky on wide screens, a "Contents" menu
 * above it on narrow ones (one of the two is displayed). Nothing for a report with fewer than two sections.
 */
export function ReportContents({
  container,
  version,
  placement,
}: {
  container: RefObject<HTMLElement | null>;
  version: string;
  placement: "menu" | "side";
}) {
  const t = useTranslations("report");
  const headings = useHeadings(container, version);
  const [open, setOpen] = useState(false);
  if (headings.length < 2) return null;
  if (placement === "side") {
    return (
      <nav
        aria-label={t("contents")}
        data-print="hide"
        className="sticky top-4 hidden max-h-[calc(100vh-2rem)] space-y-2 overflow-y-auto self-start lg:block"
      >
        <h2 className="text-sm font-medium">{t("contents")}</h2>
        <ContentsList headings={headings} />
      </nav>
    );
  }
  return (
    <details
      data-print="hide"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="rounded border border-zinc-200 px-3 py-2 lg:hidden dark:border-zinc-800"
    >
      <summary className="cursor-pointer text-sm font-medium">{t("contents")}</summary>
      <nav aria-label={t("contents")} className="mt-2">
        <ContentsList headings={headings} onPick={() => setOpen(false)} />
      </nav>
    </details>
  );
}
