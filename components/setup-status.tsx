import { useTranslations } from "next-intl";
import type { HealthReport } from "@/lib/server/operations/health";

/** "MODEL=openai:gpt-4.1 with OPENAI_API_KEY": the setting and its key, for the sentence in the page's language. */
const alternativeParts = (text: string) => /^(\S+) with (\S+)$/.exec(text);

/**
 * Tells the operator, exactly, what is missing before research can run; shown only when something
 * is (no usable model, the database unreachable, searching misconfigured), otherwise nothing.
 * Role names, variables and settings stay as they are configured; the problems found in the
 * configuration are the server's own sentences.
 */
export function SetupStatus({
  health,
  searchProblem,
}: {
  health: HealthReport;
  searchProblem: string | null;
}) {
  const t = useTranslations("setup.status");
  const { database, models } = health;
  if (database.ok && models.configured && !searchProblem) return null;
  const alternative = (text: string) => {
    const parts = alternativeParts(text);
    return parts ? t("alternative", { setting: parts[1], key: parts[2] }) : text;
  };
  return (
    <section
      aria-label={t("title")}
      className="space-y-3 rounded-lg border border-amber-300 bg-white p-4 text-sm dark:border-amber-800 dark:bg-zinc-900"
    >
      <h2 className="font-medium">{t("title")}</h2>
      <p data-testid="database-status">
        {database.ok
          ? t("databaseConnected", { kind: database.kind === "postgres" ? "postgres" : "pglite" })
          : t("databaseUnreachable")}
      </p>
      {searchProblem && (
        <p data-testid="search-status" className="font-medium text-amber-700 dark:text-amber-400">
          {t("searchProblem", { problem: searchProblem })}
        </p>
      )}
      {models.configured ? (
        <p data-testid="model-status">
          {t("models", { models: models.roles.map((r) => `${r.role} → ${r.model}`).join(", ") })}
        </p>
      ) : (
        <div data-testid="model-status" className="space-y-2">
          <p className="font-medium text-amber-700 dark:text-amber-400">
            {t("noModel", { roles: models.unconfigured.join(", ") })}
          </p>
          {models.problems.length > 0 && (
            <ul className="list-disc pl-5 text-muted">
              {models.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
          {models.help && (
            <>
              <p>{t("help")}</p>
              <p>{t("ollama")}</p>
              <pre className="overflow-x-auto rounded bg-zinc-100 p-3 font-mono text-xs dark:bg-zinc-800">
                {models.help.exampleText}
              </pre>
              <p className="text-muted">
                {t("alternatives", { list: models.help.alternatives.map(alternative).join(" · ") })}
              </p>
            </>
          )}
        </div>
      )}
    </section>
  );
}
