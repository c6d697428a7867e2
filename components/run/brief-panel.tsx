/** The research brief the engine wrote from the question (and the clarification answer). */
export function BriefPanel({ brief }: { brief: string }) {
  return (
    <section
      aria-label="Research brief"
      className="rounded-lg border border-zinc-200 p-4 text-sm dark:border-zinc-800"
    >
      <h2 className="mb-1 font-medium">Brief</h2>
      <p className="whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{brief}</p>
    </section>
  );
}
