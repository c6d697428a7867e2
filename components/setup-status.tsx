import type { HealthReport } from "@/lib/server/operations/health";

/**
 * Tells the operator, exactly, what is missing before research can run; shown only when something
 * is (no usable model, the database unreachable, searching misconfigured), otherwise nothing.
 */
export function SetupStatus({
  health,
  searchProblem,
}: {
  health: HealthReport;
  searchProblem: string | null;
}) {
  const { database, models } = health;
  if (database.ok && models.configured && !searchProblem) return null;
  return (
    <section
      aria-label="System status"
      className="space-y-3 rounded-lg border border-amber-300 bg-white p-4 text-sm dark:border-amber-800 dark:bg-zinc-900"
    >
      <h2 className="font-medium">System status</h2>
      <p data-testid="database-status">
        Database:{" "}
        {database.ok
          ? `connected (${database.kind === "postgres" ? "PostgreSQL" : "embedded PGlite"})`
          : "unreachable (the server log says why)"}
      </p>
      {searchProblem && (
        <p data-testid="search-status" className="font-medium text-amber-700 dark:text-amber-400">
          Search is not configured: {searchProblem}
        </p>
      )}
      {models.configured ? (
        <p data-testid="model-status">
          Models: {models.roles.map((r) => `${r.role} → ${r.model}`).join(", ")}
        </p>
      ) : (
        <div data-testid="model-status" className="space-y-2">
          <p className="font-medium text-amber-700 dark:text-amber-400">
            No model configured for: {models.unconfigured.join(", ")}. Research runs cannot start yet.
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
              <p>{models.help.message}</p>
              <p>For a local Ollama, set these and restart:</p>
              <pre className="overflow-x-auto rounded bg-zinc-100 p-3 font-mono text-xs dark:bg-zinc-800">
                {models.help.exampleText}
              </pre>
              <p className="text-muted">Or: {models.help.alternatives.join(" · ")}</p>
            </>
          )}
        </div>
      )}
    </section>
  );
}
