/**
 * What report Markdown may turn into. A report quotes pages fetched from anywhere, so its Markdown
 * is untrusted: no raw HTML, no images (a remote image is a request to a stranger's server the moment
 * the page opens — a tracking pixel), and no link that is not http(s), mailto or relative.
 */

/** The Markdown tree as far as these steps need it (mdast nodes, loosely typed). */
export interface MdNode {
  type: string;
  children?: MdNode[];
  value?: string;
  url?: string;
  title?: string | null;
  alt?: string | null;
  identifier?: string;
  label?: string | null;
  referenceType?: string;
}

/**
 * The one place a URL from the Markdown is accepted: http(s), mailto and relative URLs (path, query,
 * fragment) are kept; anything else (javascript:, data:, vbscript:, file:, …) is dropped. Browsers
 * ignore tabs and newlines inside URLs and trim control characters, so those are removed before the
 * scheme is read — otherwise `java\tscript:` would pass as "relative".
 */
export function safeHref(raw: string): string | undefined {
  const url = raw
    .replace(/[\t\n\r]/g, "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: trimming control characters is the point
    .replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "");
  if (url === "") return undefined;
  const scheme = url.match(/^([^/?#]*?):/)?.[1];
  if (scheme === undefined) return url;
  return /^(?:https?|mailto)$/i.test(scheme) ? url : undefined;
}

/** The text an image stands as once it is not an image: its alt text, else a word saying what it was. */
function imageText(alt: string | null | undefined): MdNode {
  return { type: "text", value: alt?.trim() ? alt : "image" };
}

/** An image (inline or by reference) as a link to it; inside a link, as its alt text only. */
function imageReplacement(node: MdNode, insideLink: boolean): MdNode | undefined {
  if (node.type !== "image" && node.type !== "imageReference") return undefined;
  if (insideLink) return imageText(node.alt);
  if (node.type === "image") {
    return { type: "link", url: node.url ?? "", title: node.title ?? null, children: [imageText(node.alt)] };
  }
  return {
    type: "linkReference",
    identifier: node.identifier,
    label: node.label,
    referenceType: node.referenceType,
    children: [imageText(node.alt)],
  };
}

const LINKS = new Set(["link", "linkReference"]);

function replaceImages(node: MdNode, insideLink: boolean): void {
  if (!node.children) return;
  const nested = insideLink || LINKS.has(node.type);
  node.children = node.children.map((child) => {
    const replaced = imageReplacement(child, nested) ?? child;
    replaceImages(replaced, nested);
    return replaced;
  });
}

/** Remark step: every image and image reference becomes a link (a plain text inside a link). */
export function remarkImagesAsLinks() {
  return (tree: MdNode) => replaceImages(tree, false);
}

/**
 * The HTML elements Markdown (with GFM: tables, task lists, strikethrough, footnotes) produces.
 * Anything else is unwrapped to its text. `img` stays on the list only because the renderer draws
 * it as a link: a second wall behind the remark step, should anything ever produce one.
 */
export const allowedReportElements = [
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "a",
  "em",
  "strong",
  "del",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "input",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "hr",
  "br",
  "sup",
  "section",
  "img",
];

/**
 * A bare URL in the text is a link only when it is a well-formed absolute web address with a real
 * host: a dotted name ending in letters (example.org), `localhost`, or a full IPv4 address. GFM's
 * autolinking takes fragments such as `http://127` or `https://foo` as links; those stay text.
 */
export function isWellFormedWebUrl(text: string): boolean {
  const m = text.match(/^(?:https?:\/\/)?(?:[^@/?#\s]+@)?([^/?#:\s]+)(?::\d{1,5})?(?:[/?#]\S*)?$/i);
  if (!m) return false;
  const host = m[1].toLowerCase().replace(/\.$/, "");
  if (host === "localhost") return true;
  const octets = host.split(".");
  if (octets.length === 4 && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)) return true;
  const labels = host.split(".");
  return (
    labels.length >= 2 &&
    labels.every((l) =>
      /^[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]*[a-z0-9\u00a1-\uffff])?$/i.test(l),
    ) &&
    /^(?:[a-z]{2,63}|xn--[a-z0-9-]+)$/i.test(labels.at(-1) ?? "")
  );
}

const textOfNode = (node: MdNode): string => node.value ?? (node.children ?? []).map(textOfNode).join("");

/**
 * An autolink (a link whose words are its own address, as GFM makes from bare URLs and `www.`)
 * to something that is not a well-formed web address becomes its text again. Written links
 * (`[words](url)`) are the author's choice and left to safeHref.
 */
function unlinkFragments(node: MdNode): void {
  if (!node.children) return;
  node.children = node.children.flatMap((child) => {
    if (child.type === "link" && child.url !== undefined) {
      const words = textOfNode(child);
      const bare = child.url === words || child.url === `http://${words}` || child.url === `mailto:${words}`;
      if (bare && !child.url.startsWith("mailto:") && !isWellFormedWebUrl(words)) {
        return [{ type: "text", value: words }];
      }
    }
    unlinkFragments(child);
    return [child];
  });
}

/** Remark step: bare-URL fragments (`http://127`, `https://intranet`) are not links. */
export function remarkWellFormedAutolinks() {
  return (tree: MdNode) => unlinkFragments(tree);
}
