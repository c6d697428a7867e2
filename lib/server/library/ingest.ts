/**
 * Turns a POST /api/library request into a document to store: JSON text/markdown/HTML, JSON
 * {url} (fetched through the SSRF guard), or a multipart upload (PDF, HTML, text, Markdown).
 * Everything is stored as plain text; HTML is never kept raw. Size limits are enforced while the
 * body is read, so an oversized upload is refused without being buffered whole. PDF and HTML are
 * parsed in a worker thread with a time and a page cap (lib/fetch/isolated-extract.ts), so a large
 * document never stalls the server's other requests and streams.
 *
 * @internal to lib/server/library/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import { AppError } from "../../errors.ts";
import type { ExtractedDocument } from "../../fetch/extract.ts";
import { ExtractionError } from "../../fetch/extract.ts";
import {
  extractIsolated,
  fetchDocumentIsolated,
  type ParseLimits,
  parseLimitsFromEnv,
} from "../../fetch/isolated-extract.ts";
import { FetchRefusedError, parseAllowedHosts } from "../../fetch/safe-fetch.ts";
import { parseJsonBytes, readBodyBytes, validated } from "../../http.ts";
import { stripNul } from "../../nul.ts";

export const LIBRARY_LIMITS = {
  /** Request body: an upload, or a JSON body (HTML given as text shrinks once extracted). */
  maxBodyBytes: 10 * 1024 * 1024,
  /** The text that is stored and searched, after extraction. */
  maxTextBytes: 2 * 1024 * 1024,
  maxTitleChars: 500,
} as const;

export interface DocumentToStore {
  title: string;
  sourceUrl: string | null;
  mimeType: string;
  content: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

const formatMime = { text: "text/plain", markdown: "text/markdown", html: "text/html" } as const;

export const addDocumentSchema = z
  .object({
    title: z.string().trim().min(1).max(LIBRARY_LIMITS.maxTitleChars).optional(),
    text: z.string().optional(),
    format: z.enum(["text", "markdown", "html"]).optional(),
    url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  })
  .strict()
  .refine((b) => (b.text === undefined) !== (b.url === undefined), {
    message: 'give either "text" (with "format": text, markdown or html) or "url"',
  })
  .refine((b) => b.url === undefined || b.format === undefined, {
    message: '"format" applies to "text" only; a URL\'s format comes from the server',
    path: ["format"],
  });

export async function readLibraryRequest(req: Request, env: Env): Promise<DocumentToStore> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const limits = parseLimitsFromEnv(env);
  if (type === "application/json") return fromJson(await readBody(req), env, limits, req.signal);
  if (type === "multipart/form-data") return fromUpload(req, await readBody(req), limits);
  throw new AppError(
    "unsupported_media_type",
    `Send application/json ({text, format} or {url}) or multipart/form-data with a "file" field, not ${type || "a body without a content type"}.`,
  );
}

async function fromJson(
  body: Uint8Array,
  env: Env,
  limits: ParseLimits,
  signal: AbortSignal,
): Promise<DocumentToStore> {
  const input = validated(addDocumentSchema, parseJsonBytes(body));
  if (input.url !== undefined) return fromUrl(input.url, input.title, env, limits, signal);
  const mimeType = formatMime[input.format ?? "text"];
  // Plain text and Markdown are stored as given, so their limit applies before any work is done.
  if (mimeType !== "text/html") checkTextSize(input.text ?? "");
  const bytes = new TextEncoder().encode(input.text ?? "");
  const doc = await extract(mimeType, bytes, "Untitled document", limits, signal);
  return toStore(doc, input.title, null, mimeType);
}

async function fromUrl(
  url: string,
  title: string | undefined,
  env: Env,
  limits: ParseLimits,
  signal: AbortSignal,
) {
  let allowedHosts: string[];
  try {
    allowedHosts = parseAllowedHosts(env);
  } catch (e) {
    throw new AppError("not_configured", (e as Error).message);
  }
  let doc: ExtractedDocument;
  try {
    doc = await fetchDocumentIsolated(url, limits, {
      allowedHosts,
      signal,
      maxBytes: LIBRARY_LIMITS.maxBodyBytes,
    });
  } catch (e) {
    if (e instanceof FetchRefusedError) {
      throw new AppError("validation_failed", `The URL could not be added: ${e.message}`, {
        details: { reason: e.reason, url: e.url, ...(e.status ? { status: e.status } : {}) },
      });
    }
    throw unreadable(e);
  }
  return toStore(doc, title, doc.url, doc.contentType);
}

const uploadTypes: Record<string, string> = {
  "application/pdf": "application/pdf",
  "text/html": "text/html",
  "application/xhtml+xml": "text/html",
  "text/markdown": "text/markdown",
  "text/x-markdown": "text/markdown",
  "text/plain": "text/plain",
};
const extensionTypes: Record<string, string> = {
  pdf: "application/pdf",
  html: "text/html",
  htm: "text/html",
  xhtml: "text/html",
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  text: "text/plain",
};

async function fromUpload(req: Request, body: Uint8Array, limits: ParseLimits): Promise<DocumentToStore> {
  let form: FormData;
  try {
    form = await new Response(body as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": req.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw new AppError("bad_request", "The multipart/form-data body could not be parsed.");
  }
  const file = form.get("file");
  if (!(file instanceof Blob)) {
    throw new AppError(
      "validation_failed",
      'Invalid request: file: a "file" field with the document is required',
    );
  }
  const title = form.get("title");
  if (title !== null && (typeof title !== "string" || title.trim().length > LIBRARY_LIMITS.maxTitleChars)) {
    throw new AppError(
      "validation_failed",
      `Invalid request: title: at most ${LIBRARY_LIMITS.maxTitleChars} characters`,
    );
  }
  const name = file instanceof File ? file.name : "";
  const mimeType = uploadType(file.type, name);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (mimeType === "application/pdf" && !startsWith(bytes, "%PDF-")) {
    throw new AppError("validation_failed", `${name || "The file"} is not a PDF document.`);
  }
  if (mimeType !== "application/pdf" && bytes.subarray(0, 8192).includes(0)) {
    throw new AppError("unsupported_media_type", `${name || "The file"} looks binary, not ${mimeType}.`);
  }
  if (mimeType === "text/plain" || mimeType === "text/markdown") checkSize(bytes.byteLength);
  const fallbackTitle = name.replace(/\.[a-z0-9]+$/i, "") || "Untitled document";
  const doc = await extract(mimeType, bytes, fallbackTitle, limits, req.signal);
  return toStore(doc, title?.trim() || undefined, null, mimeType);
}

function uploadType(declared: string, name: string): string {
  const mime = declared.split(";")[0].trim().toLowerCase();
  const ext = name.includes(".") ? name.split(".").pop()!.toLowerCase() : "";
  const type = uploadTypes[mime] ?? extensionTypes[ext];
  if (!type) {
    throw new AppError(
      "unsupported_media_type",
      `Unsupported file type ${mime || ext || "(unknown)"}: upload PDF, HTML, Markdown or plain text.`,
    );
  }
  return type;
}

/** Extraction of in-memory bytes; `fallbackTitle` becomes the title when the text has none. */
async function extract(
  contentType: string,
  body: Uint8Array,
  fallbackTitle: string,
  limits: ParseLimits,
  signal: AbortSignal,
) {
  const resource = {
    // The path's last segment is what extraction falls back to as the title.
    url: `file:///${encodeURIComponent(fallbackTitle)}`,
    status: 200,
    contentType,
    charset: "utf-8",
    body,
    redirects: [],
  };
  try {
    return await extractIsolated(resource, limits, signal);
  } catch (e) {
    throw unreadable(e);
  }
}

function toStore(
  doc: ExtractedDocument,
  title: string | undefined,
  sourceUrl: string | null,
  mimeType: string,
) {
  // Extraction drops U+0000 from the text; a title typed into the form may still carry one.
  const content = doc.text.trim();
  if (!content) {
    throw new AppError(
      "validation_failed",
      mimeType === "application/pdf"
        ? "The PDF contains no extractable text (is it a scanned image?)."
        : "The document contains no text.",
    );
  }
  checkTextSize(content);
  const finalTitle = stripNul(title || doc.title.trim() || "Untitled document").slice(
    0,
    LIBRARY_LIMITS.maxTitleChars,
  );
  return { title: finalTitle, sourceUrl, mimeType, content };
}

/**
 * A document that cannot be read (corrupt PDF, no extractor, too slow to parse) is the caller's
 * problem: 422; one over a size limit of what is read (pages, parser memory): 413.
 */
function unreadable(e: unknown): unknown {
  if (!(e instanceof ExtractionError)) return e;
  const code =
    e.reason === "too_many_pages" || e.reason === "too_large" ? "payload_too_large" : "validation_failed";
  return new AppError(code, e.message, { cause: e, details: { reason: e.reason } });
}

function checkTextSize(text: string): void {
  checkSize(Buffer.byteLength(text, "utf8"), "text");
}

function checkSize(bytes: number, what = "file"): void {
  if (bytes > LIBRARY_LIMITS.maxTextBytes) {
    throw new AppError(
      "payload_too_large",
      `The document's ${what} is ${mb(bytes)}; the limit is ${mb(LIBRARY_LIMITS.maxTextBytes)}.`,
    );
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function startsWith(bytes: Uint8Array, ascii: string): boolean {
  return [...ascii].every((c, i) => bytes[i] === c.charCodeAt(0));
}

/** The body, refused with 413 as soon as it exceeds the limit (declared or actual). */
function readBody(req: Request): Promise<Uint8Array> {
  const max = LIBRARY_LIMITS.maxBodyBytes;
  return readBodyBytes(
    req,
    max,
    () =>
      new AppError(
        "payload_too_large",
        `The request body exceeds the ${mb(max)} limit for library documents.`,
      ),
  );
}
