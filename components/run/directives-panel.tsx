import type { DirectiveView } from "./types";

/** Every directive of the run with its round, priority, origin and status; steering while it runs. */
export function DirectivesPanel({ directives }: { directives: DirectiveView[] }) {
  return (
    <section aria-label="Directives" className="space-y-2">
      <h2 className="font-medium">Directives</h2>
      <ul className="space-y-2 text-sm">
        {directives.map((d) => (
          <li key={d.id} className="rounded border border-zinc-200 p-2 dark:border-zinc-800">
            <span className="mr-2 rounded bg-zinc-100 px-1 text-xs dark:bg-zinc-800">
              r{d.round} · {d.priority} · {d.origin} · {d.status}
            </span>
            {d.topic}
          </li>
        ))}
      </ul>
    </section>
  );
}
