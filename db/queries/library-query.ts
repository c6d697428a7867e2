/**
 * A library search query in the words the index holds: each part of the researcher's query
 * (a word, a "quoted phrase", an -exclusion) is segmented by the tokeniser that segmented the
 * documents (lib/text/tokens.ts), so a Chinese or German query meets the documents on the same
 * tokens. The result is websearch syntax again, which PostgreSQL parses safely whatever it holds.
 */
import { contentWords, words } from "../../lib/text/tokens.ts";

export interface LibraryQuery {
  /** Every word must match (websearch syntax), exclusions kept. */
  all: string;
  /** Any significant word may match (websearch `or`), exclusions kept apart. */
  any: string;
  /** The exclusions alone (websearch syntax), ANDed with `any`. */
  excluded: string;
  /** Significant words, for marking a snippet. */
  terms: string[];
}

interface Part {
  words: string[];
  phrase: boolean;
  excluded: boolean;
}

// websearch_to_tsquery reads a bare `or` as its operator: a query's own "or" is never a term.
const notOperator = (w: string) => w !== "or";

function parts(query: string): Part[] {
  return (query.match(/-?"[^"]*"|\S+/g) ?? []).map((token) => {
    const excluded = token.startsWith("-") && token.length > 1;
    const body = excluded ? token.slice(1) : token;
    const phrase = body.startsWith('"');
    return { words: words(body).filter(notOperator), phrase, excluded };
  });
}

const render = (p: Part) => {
  const text = p.phrase || p.words.length > 1 ? `"${p.words.join(" ")}"` : p.words.join(" ");
  return p.excluded ? `-${text}` : text;
};

export function libraryQuery(query: string): LibraryQuery {
  const all = parts(query).filter((p) => p.words.length > 0);
  const positive = all.filter((p) => !p.excluded);
  const significant = [...new Set(positive.flatMap((p) => contentWords(p.words.join(" "))))].filter(
    notOperator,
  );
  const anyWords = significant.length > 0 ? significant : [...new Set(positive.flatMap((p) => p.words))];
  return {
    // Within one unspaced part (a Chinese run) the words are ANDed, not a phrase: a document that
    // says the same thing in another order still matches every word.
    all: all.map((p) => (p.phrase ? render(p) : p.excluded ? render(p) : p.words.join(" "))).join(" "),
    any: anyWords.join(" or "),
    excluded: all
      .filter((p) => p.excluded)
      .map(render)
      .join(" "),
    terms: anyWords,
  };
}

const SNIPPET_CHARS = 240;

/**
 * A snippet with the terms marked **like this**, for text PostgreSQL's headline cannot mark: its
 * parser sees an unspaced Chinese sentence as one token, so none of our words is found in it.
 */
export function markedSnippet(content: string, terms: readonly string[]): string {
  const lower = content.toLowerCase();
  const hits = terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
  const first = hits.length > 0 ? Math.min(...hits) : 0;
  const start = Math.max(0, first - SNIPPET_CHARS / 3);
  const text = content
    .slice(start, start + SNIPPET_CHARS)
    .replace(/\s+/g, " ")
    .trim();
  // One pass, longest term first, so a term inside a longer one does not split its mark.
  const pattern = [...terms]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|");
  const marked = pattern ? text.replace(new RegExp(pattern, "giu"), "**$&**") : text;
  return `${start > 0 ? "… " : ""}${marked}${start + SNIPPET_CHARS < content.length ? " …" : ""}`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
