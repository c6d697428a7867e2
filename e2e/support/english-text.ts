/**
 * English left on a page in another language: the visible text nodes, the rendered text of
 * paragraphs, cells, headings, links and buttons, and the labels a screen reader says, that contain
 * a phrase of two or more words from the English catalogue (messages/en.json). A phrase is the literal text of a message between its ICU arguments; a
 * message the other language writes the same way (a brand, a format's name) is no evidence.
 */
import fs from "node:fs";
import path from "node:path";
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import type { Page } from "@playwright/test";

const catalogue = (locale: string): object =>
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../messages", `${locale}.json`), "utf8"));

function flatten(tree: object, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value]] : flatten(value, `${prefix}${key}.`),
  );
}

/** The literal runs of a message, its plural and select branches and rich-text tags included. */
function literalRuns(message: string): string[] {
  const runs: string[] = [];
  let current = "";
  const cut = () => {
    runs.push(current);
    current = "";
  };
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal) current += el.value;
      else if (el.type === TYPE.tag) {
        cut();
        walk(el.children);
        cut();
      } else {
        cut();
        if ("options" in el)
          for (const option of Object.values(el.options)) {
            walk(option.value);
            cut();
          }
      }
    }
  };
  walk(parse(message, { ignoreTag: false }));
  cut();
  return runs;
}

/** Its words: the runs between spaces that have a letter ("follow-up" is one). */
const words = (text: string) => text.split(/\s+/).filter((w) => /\p{L}/u.test(w));

/** The English phrases (two or more words) that have no place on a page in `locale`. */
export function englishPhrases(locale: "de" | "zh"): string[] {
  const theirs = new Map(flatten(catalogue(locale)));
  // A run the other language writes as it is (code such as `Authorization: Bearer …` inside a
  // sentence) is no evidence either.
  const kept = new Set(
    [...theirs.values()].flatMap((message) => literalRuns(message).map((run) => run.trim())),
  );
  const phrases = flatten(catalogue("en")).flatMap(([key, message]) =>
    theirs.get(key) === message ? [] : literalRuns(message).map((run) => run.trim()),
  );
  return [...new Set(phrases.filter((p) => words(p).length >= 2 && !kept.has(p)))].sort(
    (a, b) => b.length - a.length,
  );
}

export interface EnglishText {
  text: string;
  phrase: string;
}

/**
 * The page's visible texts that contain one of `phrases` (whole words, case as written), leaving out
 * `userContent` (texts the test's data put there, e.g. source titles from the English web fixture)
 * and stored passages quoted from the sources.
 */
export async function englishOnPage(
  page: Page,
  phrases: string[],
  userContent: string[],
): Promise<EnglishText[]> {
  const texts = await page.evaluate(() => {
    const skip = "script, style, noscript, template, [data-testid='citation-passage']";
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.replace(/\s+/g, " ").trim();
      if (!parent || !text || parent.closest(skip) || !parent.checkVisibility()) continue;
      out.push(text);
    }
    // A phrase split by inline markup ("No <b>runs</b> yet") is whole in its block's rendered text.
    const blocks = "p, li, dt, dd, td, th, h1, h2, h3, h4, h5, h6, label, legend, summary, button, a, option";
    for (const el of document.body.querySelectorAll<HTMLElement>(blocks)) {
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, without hidden parts, is what a reader sees
      const text = el.innerText?.replace(/\s+/g, " ").trim();
      if (text && !el.closest(skip) && el.checkVisibility()) out.push(text);
    }
    for (const el of document.body.querySelectorAll("[aria-label], [placeholder], [title]")) {
      if (el.closest(skip) || !(el as HTMLElement).checkVisibility()) continue;
      for (const name of ["aria-label", "placeholder", "title"]) {
        const value = el.getAttribute(name)?.trim();
        if (value) out.push(value);
      }
    }
    return out;
  });
  const isUserContent = (text: string) => userContent.some((u) => u.includes(text));
  const found: EnglishText[] = [];
  for (const text of new Set(texts)) {
    if (isUserContent(text)) continue;
    const phrase = phrases.find((p) => new RegExp(`(?<!\\p{L})${escapeRegExp(p)}(?!\\p{L})`, "u").test(text));
    if (phrase) found.push({ text, phrase });
  }
  return found;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
