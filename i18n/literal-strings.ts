/**
 * Finds words a person would read that are written into the code instead of the message files
 * (messages/<locale>.json) or the report's words (lib/research/report/words, lib/server/exports/labels.ts).
 * It parses every file with the TypeScript compiler (its syntax tree, not regular expressions), so a
 * className, an import path or a comment is never taken for text. i18n/literal-strings.test.ts runs it.
 *
 * Three rules:
 * - JSX: a text child with a letter; a string in a visible attribute (aria-label, title, alt, …, and
 *   props named like *Label/*Text/message); a string a child expression can render (`{a ? "On" : "Off"}`).
 * - UI code (.ts/.tsx in app/ and components/, not route handlers): any other string that reads as
 *   English prose (two or more words, capitalised or ending in a sentence mark, or three plain words).
 * - Report-writing code: no English report heading, notice or note (the English report and export
 *   words, a Markdown heading or bold lead with a Latin word) outside the words modules.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Node, type SourceFile, SyntaxKind } from "typescript/unstable/ast";
import { API } from "typescript/unstable/sync";

export interface Offender {
  file: string;
  line: number;
  text: string;
}

export const root = path.resolve(import.meta.dirname, "..");

/** Attributes a person reads or a screen reader says. */
const VISIBLE_ATTRIBUTES = new Set([
  "aria-label",
  "aria-description",
  "aria-placeholder",
  "aria-roledescription",
  "aria-valuetext",
  "title",
  "placeholder",
  "alt",
  "label",
  "message",
  "heading",
  "description",
  "caption",
  "legend",
  "hint",
  "summary",
]);
const VISIBLE_PROP = /(Label|Text|Title|Message|Heading|Description|Placeholder|Hint|Caption)$/;

/**
 * Real exceptions: words that are the same in every language. Each is allowed wherever it appears,
 * as the whole text of a node.
 */
const ALLOWED = new Set([
  // The product's name is a brand, not translated.
  "Deep Research",
  // Each language's name in itself (the switcher; i18n/locale.ts `localeNames`).
  "English",
  "Deutsch",
  "中文",
  // Names of formats and protocols, the same in every language.
  "PDF",
  "DOCX",
  "Markdown",
  "JSON",
  "MCP",
  "API",
  "OpenAPI",
  "HTML",
  "URL",
  "UTC",
  // Microsoft Word, a format the report downloads as.
  "Word",
  // Search services by their brand names (the admin's search settings).
  "Brave Search",
]);

/** Is `attribute` one whose string a person sees or hears? */
function isVisibleAttribute(attribute: string): boolean {
  return VISIBLE_ATTRIBUTES.has(attribute) || VISIBLE_PROP.test(attribute);
}

/** Elements whose content is code, a key or program output, not words. */
const CODE_ELEMENTS = new Set(["code", "kbd", "samp", "pre"]);

/** An example value a placeholder shows (a URL, an address, a model id): one token with `:/.@`, no words. */
const isExampleValue = (text: string) => /^\S+$/.test(text.trim()) && /[:/.@]/.test(text);

const hasLetter = (text: string) => /\p{L}/u.test(text);
const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * Whether a string outside JSX reads as English words for a person: two or more Latin words that
 * start capitalised or end in a sentence mark, or three or more plain words. CSS classes (a token
 * with `-`, `:`, `[`, `/`), paths, identifiers and single words are not prose.
 */
export function looksLikeProse(text: string): boolean {
  const flat = squash(text);
  if (/^(https?:|mailto:|\/|#|\.|@)/.test(flat)) return false;
  const tokens = flat.split(" ");
  if (tokens.some((t) => /[-:[\]/=_{}<>|\\]/.test(t) && !/^[A-Za-z]+-[a-z]+[.,;]?$/.test(t))) return false;
  const words = tokens.filter((t) => /^[("'“]?[A-Za-z][a-z']*[)"'”]?[.,;:?!…]?$/.test(t));
  if (words.length < 2 || words.length < tokens.length / 2) return false;
  // A long run of bare lowercase words is a word list for matching (stop words), not a sentence.
  if (words.length > 12 && !/[A-Z.,;:?!]/.test(flat)) return false;
  return /^[("'“]?[A-Z]/.test(flat) || /[.?!…:]$/.test(flat) || words.length >= 3;
}

/** The files under `folders` that git knows (tracked or new), by extension, tests left out. */
export function sourceFiles(folders: string[], extension: RegExp): string[] {
  const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard", ...folders], {
    cwd: root,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter((f) => extension.test(f) && !/\.test\.tsx?$/.test(f) && fs.existsSync(path.join(root, f)));
}

/**
 * Parses `files` (relative to `base`, the repository by default) with the TypeScript compiler: a
 * throwaway project of just these files, no libraries and no imports resolved (only the syntax is
 * needed, and it is fast).
 */
export function parseFiles<T>(
  files: string[],
  use: (file: string, source: SourceFile) => T[],
  base = root,
): T[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "literal-strings-"));
  const config = path.join(dir, "tsconfig.json");
  const compilerOptions = { noLib: true, noResolve: true, types: [], jsx: "preserve", skipLibCheck: true };
  fs.writeFileSync(config, JSON.stringify({ compilerOptions, files: files.map((f) => path.join(base, f)) }));
  const api = new API({ cwd: dir });
  try {
    const program = api.updateSnapshot({ openProject: config }).getProjects()[0].program;
    return files.flatMap((file) => {
      const source = program.getSourceFile(path.join(base, file));
      if (!source) throw new Error(`the compiler did not parse ${file}`);
      return use(file, source);
    });
  } finally {
    api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every node below `node`, depth first, skipping the subtrees `skip` says no to. */
export function walk(node: Node, visit: (n: Node) => "skip" | undefined): void {
  node.forEachChild((child) => {
    if (visit(child) !== "skip") walk(child, visit);
    return undefined;
  });
}

/** The literal texts of a string or template node (a template's parts without its `${…}`). */
export function literalTexts(node: Node): string[] {
  switch (node.kind) {
    case SyntaxKind.StringLiteral:
    case SyntaxKind.NoSubstitutionTemplateLiteral:
    case SyntaxKind.TemplateHead:
    case SyntaxKind.TemplateMiddle:
    case SyntaxKind.TemplateTail:
      return [(node as Node & { text: string }).text];
    default:
      return [];
  }
}

/** The strings an expression can evaluate to as written: the branches of `?:`, `&&`, `||`, `??`, templates. */
function renderedStrings(node: Node | undefined): Node[] {
  if (!node) return [];
  const n = node as Node & Record<string, Node | undefined>;
  switch (node.kind) {
    case SyntaxKind.StringLiteral:
    case SyntaxKind.NoSubstitutionTemplateLiteral:
      return [node];
    case SyntaxKind.TemplateExpression: {
      // Its own text only: a string inside `${t("name")}` is an argument, not what is shown.
      const spans = (node as Node & { templateSpans: readonly (Node & { literal: Node })[] }).templateSpans;
      return [n.head as Node, ...spans.map((span) => span.literal)];
    }
    case SyntaxKind.ConditionalExpression:
      return [...renderedStrings(n.whenTrue), ...renderedStrings(n.whenFalse)];
    case SyntaxKind.BinaryExpression: {
      const op = n.operatorToken?.kind;
      if (op === SyntaxKind.AmpersandAmpersandToken) return renderedStrings(n.right);
      if (
        op === SyntaxKind.BarBarToken ||
        op === SyntaxKind.QuestionQuestionToken ||
        op === SyntaxKind.PlusToken
      )
        return [...renderedStrings(n.left), ...renderedStrings(n.right)];
      return [];
    }
    case SyntaxKind.ParenthesizedExpression:
    case SyntaxKind.AsExpression:
    case SyntaxKind.SatisfiesExpression:
    case SyntaxKind.JsxExpression:
      return renderedStrings(n.expression);
    default:
      return [];
  }
}

export function offenderAt(file: string, source: SourceFile, node: Node, text: string): Offender {
  return {
    file,
    line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
    text: squash(text),
  };
}

const allowed = (text: string) => ALLOWED.has(squash(text));

/** The JSX rule and, for UI code, the prose rule, over one parsed file. */
export function uiOffenders(file: string, source: SourceFile): Offender[] {
  const found: Offender[] = [];
  const seen = new Set<number>();
  const report = (node: Node, text: string) => {
    if (seen.has(node.pos) || allowed(text)) return;
    seen.add(node.pos);
    found.push(offenderAt(file, source, node, text));
  };
  const reportRendered = (expression: Node | undefined) => {
    for (const s of renderedStrings(expression)) {
      const text = literalTexts(s).join("");
      if (hasLetter(text) && !isExampleValue(text)) report(s, text);
    }
  };
  walk(source, (node) => {
    const n = node as Node & Record<string, Node | undefined>;
    switch (node.kind) {
      case SyntaxKind.JsxElement: {
        // Code, keys and program output are the same in every language: `<code>searchProviders</code>`.
        const tag = (n.openingElement as (Node & { tagName?: Node }) | undefined)?.tagName?.getText(source);
        return tag && CODE_ELEMENTS.has(tag) ? "skip" : undefined;
      }
      case SyntaxKind.JsxText: {
        const text = (node as Node & { text: string }).text;
        if (hasLetter(text)) report(node, text);
        return undefined;
      }
      case SyntaxKind.JsxExpression:
        if (node.parent?.kind !== SyntaxKind.JsxAttribute) reportRendered(node);
        return undefined;
      case SyntaxKind.JsxAttribute: {
        const name = n.name?.getText(source) ?? "";
        if (!isVisibleAttribute(name)) return "skip"; // className, href, id, key, data-*: never text
        reportRendered(n.initializer);
        return undefined;
      }
      // Never words for a person: module paths, types, directives, object keys, comparisons, logs.
      case SyntaxKind.ImportDeclaration:
      case SyntaxKind.ExportDeclaration:
      case SyntaxKind.LiteralType:
      case SyntaxKind.TypeAliasDeclaration:
      case SyntaxKind.InterfaceDeclaration:
      case SyntaxKind.CaseClause:
      case SyntaxKind.ElementAccessExpression:
      case SyntaxKind.TaggedTemplateExpression:
        return "skip";
      case SyntaxKind.ExpressionStatement:
        return n.expression?.kind === SyntaxKind.StringLiteral ? "skip" : undefined; // "use client"
      case SyntaxKind.BinaryExpression: {
        const op = n.operatorToken?.kind;
        const comparison =
          op === SyntaxKind.EqualsEqualsEqualsToken ||
          op === SyntaxKind.ExclamationEqualsEqualsToken ||
          op === SyntaxKind.EqualsEqualsToken ||
          op === SyntaxKind.ExclamationEqualsToken;
        return comparison ? "skip" : undefined;
      }
      case SyntaxKind.CallExpression: {
        const callee = n.expression?.getText(source) ?? "";
        return /^(console\.\w+|cn|clsx|twMerge|cva)$/.test(callee) ? "skip" : undefined;
      }
      case SyntaxKind.NewExpression:
        return /Error$/.test(n.expression?.getText(source) ?? "") ? "skip" : undefined; // for logs and boundaries
      default: {
        const parent = node.parent as (Node & { name?: Node }) | undefined;
        const property = parent?.kind === SyntaxKind.PropertyAssignment ? parent.name : undefined;
        if (property === node) return undefined; // an object key
        // `{ label: "Open" }`: a visible property's value is text even as one word.
        const visible =
          property !== undefined && isVisibleAttribute(property.getText(source).replace(/["']/g, ""));
        for (const text of literalTexts(node))
          if (visible ? hasLetter(text) : looksLikeProse(text)) report(node, text);
        return undefined;
      }
    }
  });
  return found;
}

/** Is `text` a line of Markdown structure the code writes (heading, bold lead, notice) with a Latin word in it? */
export function englishMarkdown(text: string): boolean {
  return text.split("\n").some((line) => /^\s*(#{1,6}\s+|>\s*\*\*|\*\*)[^\n]*[A-Za-z]{2,}/.test(line));
}

/** The report-writing rule over one parsed file: no English report words, no English Markdown structure. */
export function reportOffenders(file: string, source: SourceFile, phrases: string[]): Offender[] {
  const found: Offender[] = [];
  walk(source, (node) => {
    if (node.kind === SyntaxKind.ImportDeclaration || node.kind === SyntaxKind.ExportDeclaration)
      return "skip";
    for (const text of literalTexts(node)) {
      const phrase = phrases.find((p) => (p.includes(" ") ? text.includes(p) : squash(text) === p));
      if (phrase || englishMarkdown(text)) found.push(offenderAt(file, source, node, text));
    }
    return undefined;
  });
  return found;
}
