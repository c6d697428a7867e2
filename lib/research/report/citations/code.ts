/** Code is left alone: citations and links inside code spans and fences are not ours to touch. */
export function protectCode(markdown: string): { text: string; restore: (s: string) => string } {
  const saved: string[] = [];
  // Private-use characters mark the spots: they never occur in model output.
  const keep = (m: string) => {
    saved.push(m);
    return `\uE000${saved.length - 1}\uE001`;
  };
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, keep).replace(/`[^`\n]+`/g, keep);
  const restore = (s: string) => s.replace(/\uE000(\d+)\uE001/g, (_, i) => saved[Number(i)] ?? "");
  return { text, restore };
}
