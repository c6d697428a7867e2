/**
 * The engine's reason in the page's language: the message `because.<code>` with its values, a value
 * the messages name (`because.values.<name>.<value>`, e.g. a phase) said in words too. A reason
 * without a code, or with one this version has no words for, is shown as the engine wrote it.
 */
import type { Because } from "@/lib/research/ui";
import type { Translate } from "./run-words";

type Loose = {
  has(key: string): boolean;
  (key: string, values?: Record<string, string | number>): string;
};

/** A reason as the API carries it: a code this version may not know, and its values. */
type Said = Pick<Because, "values"> & { code: string };

export function becauseText(t: Translate, why: Said | null | undefined, written: string): string {
  const say = t as unknown as Loose;
  if (!why || !say.has(`because.${why.code}`)) return written;
  const values = Object.fromEntries(
    Object.entries(why.values ?? {}).map(([name, value]) => {
      const key = `because.values.${name}.${value}`;
      return [name, say.has(key) ? say(key) : value];
    }),
  );
  return say(`because.${why.code}`, values);
}
