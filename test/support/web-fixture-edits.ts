// Test-only edits to the web fixture's article pages, so a test can make the web change under a
// finished run (a refresh fetches again what its report cited): replace a passage of one page's
// text, take a page down (410 Gone afterwards, and out of the search results), and put every page
// back as it was. Reachable in process (WebFixture.edits) and over HTTP on the fixture itself for
// specs in another process. POST only: the app under test only ever GETs pages, so no page it reads
// can make it edit the web; the fixture listens on 127.0.0.1 only. Never used in production.
import type http from "node:http";

/** POST `${PAGE_EDITS_PATH}/<slug>` with `{replace: {from, to}}` or `{remove: true}`. */
export const PAGE_EDITS_PATH = "/__fixture/pages";
/** POST: every page back as it was, served and searchable. */
export const PAGE_RESTORE_PATH = "/__fixture/restore";

interface EditablePage {
  slug: string;
  paragraphs: string[];
}

export interface PageEdits {
  /** Replaces `from` with `to` in the page's text; throws when the page or the passage is not there. */
  replaceText(slug: string, from: string, to: string): void;
  /** Takes the page down: 410 Gone, and no longer in search results. */
  remove(slug: string): void;
  /** Every page back as it was. */
  restore(): void;
}

export interface PageEditor<A extends EditablePage> extends PageEdits {
  /** The page as served now: edited, or null when taken down (undefined: no such page). */
  current(slug: string): A | null | undefined;
  /** The pages served now, in their original order (for search). */
  live(): A[];
  /** Answers a control request; false when `pathname` is not a control path. */
  handle(pathname: string, req: http.IncomingMessage, res: http.ServerResponse): boolean;
}

class EditError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function createPageEditor<A extends EditablePage>(pages: readonly A[]): PageEditor<A> {
  const edited = new Map<string, A | null>();
  const original = (slug: string) => {
    const page = pages.find((p) => p.slug === slug);
    if (!page) throw new EditError(404, `no fixture page "${slug}"`);
    return page;
  };
  const current = (slug: string) =>
    edited.has(slug) ? edited.get(slug) : pages.find((p) => p.slug === slug);

  const editor: PageEditor<A> = {
    current,
    live: () => pages.map((p) => current(p.slug)).filter((p): p is A => Boolean(p)),
    replaceText(slug, from, to) {
      const page = current(slug) ?? original(slug);
      if (!from || !page.paragraphs.some((p) => p.includes(from))) {
        throw new EditError(400, `page "${slug}" does not contain ${JSON.stringify(from)}`);
      }
      edited.set(slug, { ...page, paragraphs: page.paragraphs.map((p) => p.replaceAll(from, to)) });
    },
    remove(slug) {
      original(slug);
      edited.set(slug, null);
    },
    restore() {
      edited.clear();
    },
    handle(pathname, req, res) {
      if (pathname !== PAGE_RESTORE_PATH && !pathname.startsWith(`${PAGE_EDITS_PATH}/`)) return false;
      if (req.method !== "POST") {
        reply(res, 405, { error: "POST only" });
        return true;
      }
      void control(editor, pathname, req).then(
        (body) => reply(res, 200, body),
        (e: unknown) =>
          reply(res, e instanceof EditError ? e.status : 400, {
            error: e instanceof Error ? e.message : String(e),
          }),
      );
      return true;
    },
  };
  return editor;
}

async function control(edits: PageEdits, pathname: string, req: http.IncomingMessage) {
  const body = await readJson(req);
  if (pathname === PAGE_RESTORE_PATH) {
    edits.restore();
    return { restored: true };
  }
  const slug = pathname.slice(PAGE_EDITS_PATH.length + 1);
  const replace = (body as { replace?: { from?: unknown; to?: unknown } }).replace;
  if (replace && typeof replace.from === "string" && typeof replace.to === "string") {
    edits.replaceText(slug, replace.from, replace.to);
    return { slug, replaced: true };
  }
  if ((body as { remove?: unknown }).remove === true) {
    edits.remove(slug);
    return { slug, removed: true };
  }
  throw new EditError(400, 'expected {"replace": {"from": string, "to": string}} or {"remove": true}');
}

async function readJson(req: http.IncomingMessage): Promise<object> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object") return parsed;
  } catch {}
  throw new EditError(400, "the body must be a JSON object");
}

function reply(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
