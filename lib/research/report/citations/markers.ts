/**
 * Citation markers: `[1]`, `[1, 2]`, `[1; 2]`, `[1-3]`, `[^1]`; adjacent markers (`[1][2]`, `[1] [2]`)
 * form one run. Finding them, rewriting them through a number mapping, and the researchers' local
 * numbering mapped onto the run-wide list.
 */

/** One marker; its inside is checked by parseCitationGroup. Not preceded by `\`, not followed by `(` (a link). */
export const CITATION_MARKER =
  /(?<!\\)\[\^?\s*(\d{1,4}(?:\s*[-–—]\s*\d{1,4})?(?:\s*[,;]\s*\^?\d{1,4}(?:\s*[-–—]\s*\d{1,4})?)*)\s*\](?!\()/g;
/** A range longer than this is not a citation (think `[1990-2020]`): left as text. */
const MAX_RANGE = 30;

/** The numbers of one marker's inside, or undefined when it is not a citation. */
export function parseCitationGroup(inner: string): number[] | undefined {
  const out: number[] = [];
  for (const part of inner.split(/[,;]/)) {
    const m = part
      .trim()
      .replace(/^\^/, "")
      .match(/^(\d+)(?:\s*[-–—]\s*(\d+))?$/);
    if (!m) return undefined;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a || b - a > MAX_RANGE) return undefined;
    for (let n = a; n <= b; n++) out.push(n);
  }
  return out;
}

/** `[1][2][3]`: one bracket per number, the form every reader and checker understands. */
export function renderCitationMarkers(numbers: readonly number[]): string {
  return numbers.map((n) => `[${n}]`).join("");
}

export interface MarkerRun {
  start: number;
  end: number;
  numbers: number[];
}

/** The citation runs of a text, in reading order (markers separated only by blanks join one run). */
export function findMarkerRuns(text: string): MarkerRun[] {
  const runs: MarkerRun[] = [];
  for (const m of text.matchAll(CITATION_MARKER)) {
    const numbers = parseCitationGroup(m[1]);
    if (!numbers) continue;
    const start = m.index;
    const end = start + m[0].length;
    const prev = runs.at(-1);
    if (prev && /^[ \t]*$/.test(text.slice(prev.end, start))) {
      prev.end = end;
      prev.numbers.push(...numbers);
    } else {
      runs.push({ start, end, numbers });
    }
  }
  return runs;
}

/**
 * Rewrite every citation run through `map` (old numbers in written order → new numbers). An empty
 * result removes the run together with the space before it, so "claim [9]." becomes "claim.".
 */
export function rewriteCitationRuns(text: string, map: (numbers: number[]) => number[]): string {
  let out = "";
  let last = 0;
  for (const run of findMarkerRuns(text)) {
    const mapped = [...new Set(map(run.numbers))].sort((a, b) => a - b);
    let before = text.slice(last, run.start);
    let end = run.end;
    if (mapped.length === 0) {
      before = before.replace(/[ \t]+$/, "");
      // At the start of a line, also eat the space after, so the line does not start with a blank.
      if (before === "" || before.endsWith("\n")) end += text.slice(end).match(/^[ \t]*/)?.[0].length ?? 0;
    }
    out += before + renderCitationMarkers(mapped);
    last = end;
  }
  return out + text.slice(last);
}

/**
 * Researchers' findings use their own local numbering: rewrites local `[k]` to run-wide numbers;
 * references that do not map are removed and counted.
 */
export function renumberLocalCitations(
  text: string,
  toGlobal: (local: number) => number | undefined,
): { text: string; mapped: number; dropped: number } {
  let mapped = 0;
  let dropped = 0;
  const out = rewriteCitationRuns(text, (numbers) =>
    numbers.flatMap((k) => {
      const g = toGlobal(k);
      if (g === undefined) {
        dropped++;
        return [];
      }
      mapped++;
      return [g];
    }),
  );
  return { text: out, mapped, dropped };
}

/** Every `[N]` number in a text (for checks: each must resolve to a Sources entry). */
export function citationNumbersIn(text: string): number[] {
  return findMarkerRuns(text).flatMap((r) => r.numbers);
}
