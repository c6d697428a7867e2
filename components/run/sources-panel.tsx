import { safeHref } from "../markdown-safety";
import type { RunViewJson } from "./types";

/**
 * Every source the researchers stored, with its quality tier; links open the original page (a URL
 * that is not http(s), such as a library document's library://, is shown without a link target).
 */
export function SourcesPanel({ run }: { run: RunViewJson }) {
  const { sources } = run;
  if (!sources.length) return null;
  return (
    <section aria-label="Sources" className="space-y-2">
      <h2 className="font-medium">Sources gathered</h2>
      <ul className="space-y-1 text-sm">
        {sources.map((s) => (
          <li key={s.id}>
            <span className="mr-2 rounded bg-zinc-100 px-1 text-xs dark:bg-zinc-800">{s.quality}</span>
            <a
              href={safeHref(s.url)}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="hover:underline"
            >
              {s.title || s.url}
            </a>{" "}
            <span className="text-muted">{s.domain}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
