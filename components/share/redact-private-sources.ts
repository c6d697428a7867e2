/**
 * The share page's redaction, as a remark step: links to sources from the owner's private document
 * library lose their URL. In the report's `## Sources` section such an entry reads `privateDocument`
 * ("private document" in the report's language: it becomes part of the report; no title, no
 * address); in the text, the link's words stay and only the link goes.
 */
import { entryText, sourcesHeadingIndex, urlKey } from "@/lib/research/ui";
import type { MdNode } from "../markdown-safety";

const textOf = (node: MdNode): string => node.value ?? (node.children ?? []).map(textOf).join("");

/** The top-level nodes of the last `## Sources` section (to the next heading of level 1 or 2). */
function sourcesSection(root: MdNode): Set<MdNode> {
  const top = root.children ?? [];
  const start = sourcesHeadingIndex(top as (MdNode & { depth?: number })[], (n) => entryText(textOf(n)));
  const section = new Set<MdNode>();
  if (start < 0) return section;
  for (const node of top.slice(start + 1)) {
    if (node.type === "heading" && ((node as { depth?: number }).depth ?? 6) <= 2) break;
    section.add(node);
  }
  return section;
}

export function remarkRedactPrivateSources(options: {
  privateUrls: readonly string[];
  privateDocument: string;
}) {
  const privateKeys = new Set(options.privateUrls.map(urlKey));
  const isPrivate = (url: string | undefined) => url !== undefined && privateKeys.has(urlKey(url));

  return (root: MdNode) => {
    const privateDefinitions = new Set<string>();
    root.children = (root.children ?? []).filter((node) => {
      if (node.type !== "definition" || !isPrivate(node.url)) return true;
      privateDefinitions.add(node.identifier ?? "");
      return false;
    });
    const redacts = (node: MdNode) =>
      (node.type === "link" && isPrivate(node.url)) ||
      (node.type === "linkReference" && privateDefinitions.has(node.identifier ?? ""));

    const walk = (node: MdNode, inSources: boolean) => {
      if (!node.children) return;
      node.children = node.children.flatMap((child) => {
        if (!redacts(child)) return [child];
        return inSources ? [{ type: "text", value: options.privateDocument }] : (child.children ?? []);
      });
      for (const child of node.children) walk(child, inSources);
    };
    const section = sourcesSection(root);
    for (const node of root.children) walk(node, section.has(node));
  };
}
