import { getTranslations } from "next-intl/server";

interface RunLink {
  id: string;
  question: string;
  status: string;
}

/**
 * Where a run stands among its relatives: the run it researches deeper, and the runs that research
 * it deeper. Plain links, rendered on the server (nothing here changes while the page is open).
 */
export async function LineageNav({ parent, followUps }: { parent: RunLink | null; followUps: RunLink[] }) {
  if (!parent && !followUps.length) return null;
  const t = await getTranslations("lineage");
  return (
    <nav
      aria-label={t("label")}
      data-testid="lineage"
      className="mx-auto max-w-5xl space-y-2 rounded-lg border border-zinc-200 bg-white px-6 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      {parent && (
        <p data-testid="lineage-parent">
          {t("parent")}{" "}
          <a href={`/runs/${parent.id}`} className="underline">
            {parent.question}
          </a>
        </p>
      )}
      {followUps.length > 0 && (
        <div data-testid="lineage-children">
          <p>{t("children", { count: followUps.length })}</p>
          <ul className="list-disc pl-5">
            {followUps.map((c) => (
              <li key={c.id}>
                <a href={`/runs/${c.id}`} className="underline">
                  {c.question}
                </a>{" "}
                <span className="text-muted">({t("status", { status: c.status })})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </nav>
  );
}
