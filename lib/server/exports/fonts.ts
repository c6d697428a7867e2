/**
 * The fonts a PDF export embeds (only the glyphs it uses): Noto Sans for Latin, Greek and Cyrillic
 * text with its bold and italic, and Noto Sans SC for Chinese and Japanese (Han, kana, CJK
 * punctuation). Both come from npm packages of Google's fonts (`@expo-google-fonts/noto-sans`,
 * `@expo-google-fonts/noto-sans-sc`; SIL Open Font License 1.1), read from node_modules when the
 * first export is drawn and kept in memory after (about 24 MB). docs/EXPORTS.md has the sizes.
 *
 * @internal to lib/server/exports/: a helper of its actions, not an action; adapters do not import it.
 */
import fs from "node:fs";
import path from "node:path";

export type FontName = "body" | "body-bold" | "body-italic" | "body-bold-italic" | "cjk" | "cjk-bold";

const FILES: Record<FontName, [pkg: string, file: string]> = {
  body: ["noto-sans", "400Regular/NotoSans_400Regular.ttf"],
  "body-bold": ["noto-sans", "700Bold/NotoSans_700Bold.ttf"],
  "body-italic": ["noto-sans", "400Regular_Italic/NotoSans_400Regular_Italic.ttf"],
  "body-bold-italic": ["noto-sans", "700Bold_Italic/NotoSans_700Bold_Italic.ttf"],
  cjk: ["noto-sans-sc", "400Regular/NotoSansSC_400Regular.ttf"],
  "cjk-bold": ["noto-sans-sc", "700Bold/NotoSansSC_700Bold.ttf"],
};

const loaded = new Map<FontName, Buffer>();

/**
 * The font files, by name. Read from the project's node_modules (the server runs from the project's
 * folder); the packages are listed in package.json, so a missing file is an install problem.
 */
export function fontFiles(): Map<FontName, Buffer> {
  for (const [name, [pkg, file]] of Object.entries(FILES) as [FontName, [string, string]][]) {
    if (!loaded.has(name)) {
      const at = path.join(process.cwd(), "node_modules", "@expo-google-fonts", pkg, file);
      loaded.set(name, fs.readFileSync(at));
    }
  }
  return loaded;
}

/** Characters Noto Sans lacks and Noto Sans SC has: Han, kana, CJK punctuation, full-width forms. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]+/gu;

/** A text cut into pieces of one script family each, in order: [piece, isCjk]. */
export function scriptPieces(text: string): [string, boolean][] {
  const out: [string, boolean][] = [];
  let last = 0;
  for (const m of text.matchAll(CJK)) {
    if (m.index > last) out.push([text.slice(last, m.index), false]);
    out.push([m[0], true]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push([text.slice(last), false]);
  return out;
}

export const hasCjk = (text: string) => new RegExp(CJK.source, "u").test(text);

export function fontFor(cjk: boolean, bold = false, italic = false): FontName {
  if (cjk) return bold ? "cjk-bold" : "cjk";
  if (bold) return italic ? "body-bold-italic" : "body-bold";
  return italic ? "body-italic" : "body";
}
