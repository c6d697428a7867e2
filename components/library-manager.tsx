"use client";

import { useId, useRef, useState } from "react";

/** A document as GET /api/library lists it (dates as ISO strings, no content). */
export interface LibraryDocumentView {
  id: string;
  title: string;
  sourceUrl: string | null;
  mimeType: string;
  chars: number;
  createdAt: string;
}

type Mode = "text" | "url" | "file";
const MODES: { mode: Mode; label: string }[] = [
  { mode: "text", label: "Paste text" },
  { mode: "url", label: "From a URL" },
  { mode: "file", label: "Upload a file" },
];

const TYPE_LABELS: Record<string, string> = {
  "text/plain": "Text",
  "text/markdown": "Markdown",
  "text/html": "HTML",
  "application/pdf": "PDF",
};

const typeLabel = (mime: string) => TYPE_LABELS[mime] ?? mime;
const numberFormat = new Intl.NumberFormat("en");
/** UTC and fixed-format, so the server's and the browser's rendering agree. */
const formatDate = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Reads a response's JSON; throws the API's error message ({"error":{"message"}}) on failure. */
async function readResponse<T>(r: Response): Promise<T> {
  const body = r.status === 204 ? null : await r.json().catch(() => null);
  if (!r.ok) throw new Error(body?.error?.message ?? `HTTP ${r.status}`);
  return body as T;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

const inputClass =
  "w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";
const primaryButton =
  "rounded-lg bg-zinc-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900";
const smallButton =
  "rounded border border-zinc-300 px-2 py-0.5 text-sm hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-800";

export function LibraryManager({ initial }: { initial: LibraryDocumentView[] }) {
  const [documents, setDocuments] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);

  async function refresh() {
    const r = await fetch("/api/library", { cache: "no-store" });
    setDocuments((await readResponse<{ documents: LibraryDocumentView[] }>(r)).documents);
  }

  /** Adds a document through POST /api/library, then reloads the list; true when it was stored. */
  async function add(init: RequestInit): Promise<boolean> {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const { document } = await readResponse<{ document: LibraryDocumentView }>(
        await fetch("/api/library", { method: "POST", ...init }),
      );
      setNotice(`Added “${document.title}” (${numberFormat.format(document.chars)} characters).`);
      await refresh();
      return true;
    } catch (err) {
      setError(message(err));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function remove(doc: LibraryDocumentView) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await readResponse(await fetch(`/api/library/${doc.id}`, { method: "DELETE" }));
      setNotice(`Deleted “${doc.title}”.`);
      setConfirming(null);
      await refresh();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-8">
      <AddDocument busy={busy} onAdd={add} />

      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {notice && (
        <p role="status" className="text-sm text-green-700 dark:text-green-400">
          {notice}
        </p>
      )}

      <section aria-labelledby="library-documents" className="space-y-2">
        <h2 id="library-documents" className="text-lg font-medium">
          Documents <span className="text-sm font-normal text-zinc-500">({documents.length})</span>
        </h2>
        {documents.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 p-6 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            The library is empty. Add a document above: research runs can only cite what they can find.
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
            <table className="w-full text-left text-sm">
              <thead className="bg-zinc-100 text-xs uppercase text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
                <tr>
                  <th className="px-3 py-2 font-medium">Title</th>
                  <th className="px-3 py-2 font-medium">Type</th>
                  <th className="px-3 py-2 text-right font-medium">Size</th>
                  <th className="px-3 py-2 font-medium">Added</th>
                  <th className="px-3 py-2 font-medium">Source</th>
                  <th className="px-3 py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
                {documents.map((doc) => (
                  <tr key={doc.id} className="align-top">
                    <td className="px-3 py-2 font-medium">{doc.title}</td>
                    <td className="px-3 py-2">{typeLabel(doc.mimeType)}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right">
                      {numberFormat.format(doc.chars)} chars
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-zinc-600 dark:text-zinc-400">
                      <time dateTime={doc.createdAt}>{formatDate(doc.createdAt)}</time>
                    </td>
                    <td className="max-w-xs truncate px-3 py-2">
                      {doc.sourceUrl ? (
                        <a
                          href={doc.sourceUrl}
                          rel="noreferrer noopener"
                          target="_blank"
                          className="text-blue-700 hover:underline dark:text-blue-400"
                        >
                          {doc.sourceUrl}
                        </a>
                      ) : (
                        <span className="text-zinc-500">added directly</span>
                      )}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-right">
                      {confirming === doc.id ? (
                        <span className="inline-flex items-center gap-2">
                          <span className="text-red-700 dark:text-red-400">Delete this document?</span>
                          <button
                            type="button"
                            disabled={busy}
                            onClick={() => remove(doc)}
                            className="rounded border border-red-300 px-2 py-0.5 text-red-700 hover:bg-red-50 disabled:opacity-40 dark:border-red-800 dark:text-red-400 dark:hover:bg-red-950"
                          >
                            Yes, delete
                          </button>
                          <button type="button" onClick={() => setConfirming(null)} className={smallButton}>
                            Keep
                          </button>
                        </span>
                      ) : (
                        <button
                          type="button"
                          disabled={busy}
                          aria-label={`Delete ${doc.title}`}
                          onClick={() => setConfirming(doc.id)}
                          className={smallButton}
                        >
                          Delete
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

function AddDocument({ busy, onAdd }: { busy: boolean; onAdd: (init: RequestInit) => Promise<boolean> }) {
  const id = useId();
  const [mode, setMode] = useState<Mode>("text");
  const [title, setTitle] = useState("");
  const [text, setText] = useState("");
  const [format, setFormat] = useState<"text" | "markdown" | "html">("text");
  const [url, setUrl] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const ready =
    mode === "text" ? text.trim().length > 0 : mode === "url" ? url.trim().length > 0 : file !== null;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const trimmedTitle = title.trim();
    let init: RequestInit;
    if (mode === "file") {
      if (!file) return;
      const form = new FormData();
      form.append("file", file);
      if (trimmedTitle) form.append("title", trimmedTitle);
      init = { body: form };
    } else {
      const body =
        mode === "text"
          ? { text, format, title: trimmedTitle || undefined }
          : { url: url.trim(), title: trimmedTitle || undefined };
      init = { headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    }
    if (await onAdd(init)) {
      setTitle("");
      setText("");
      setUrl("");
      setFile(null);
      if (fileInput.current) fileInput.current.value = "";
    }
  }

  const tabId = (m: Mode) => `${id}-tab-${m}`;
  const panelId = `${id}-panel`;

  return (
    <section
      aria-label="Add a document"
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 className="font-medium">Add a document</h2>
      <div role="tablist" aria-label="How to add the document" className="flex flex-wrap gap-2 text-sm">
        {MODES.map((m) => (
          <button
            key={m.mode}
            id={tabId(m.mode)}
            type="button"
            role="tab"
            aria-selected={mode === m.mode}
            aria-controls={panelId}
            onClick={() => setMode(m.mode)}
            className="rounded-full border border-zinc-300 px-3 py-1 aria-selected:bg-zinc-900 aria-selected:text-white dark:border-zinc-700 dark:aria-selected:bg-zinc-100 dark:aria-selected:text-zinc-900"
          >
            {m.label}
          </button>
        ))}
      </div>
      <form
        id={panelId}
        role="tabpanel"
        aria-labelledby={tabId(mode)}
        onSubmit={submit}
        className="space-y-3 text-sm"
      >
        <div className="space-y-1">
          <label htmlFor={`${id}-title`} className="block font-medium">
            Title (optional)
          </label>
          <input
            id={`${id}-title`}
            type="text"
            maxLength={500}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            placeholder="Taken from the document when left empty"
            className={inputClass}
          />
        </div>

        {mode === "text" && (
          <>
            <div className="flex items-center gap-2">
              <label htmlFor={`${id}-format`} className="font-medium">
                Format
              </label>
              <select
                id={`${id}-format`}
                value={format}
                onChange={(e) => setFormat(e.target.value as typeof format)}
                className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
              >
                <option value="text">Plain text</option>
                <option value="markdown">Markdown</option>
                <option value="html">HTML</option>
              </select>
            </div>
            <div className="space-y-1">
              <label htmlFor={`${id}-text`} className="block font-medium">
                Text
              </label>
              <textarea
                id={`${id}-text`}
                required
                rows={8}
                value={text}
                onChange={(e) => setText(e.target.value)}
                className={`${inputClass} font-mono`}
              />
            </div>
          </>
        )}

        {mode === "url" && (
          <div className="space-y-1">
            <label htmlFor={`${id}-url`} className="block font-medium">
              URL
            </label>
            <input
              id={`${id}-url`}
              type="url"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://example.org/article"
              className={inputClass}
            />
            <p className="text-xs text-zinc-500">
              The server fetches the page once and stores its readable text; private and internal addresses
              are refused.
            </p>
          </div>
        )}

        {mode === "file" && (
          <div className="space-y-1">
            <label htmlFor={`${id}-file`} className="block font-medium">
              File
            </label>
            <input
              id={`${id}-file`}
              ref={fileInput}
              type="file"
              required
              accept=".pdf,.html,.htm,.xhtml,.md,.markdown,.txt,.text,application/pdf,text/html,text/markdown,text/plain"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              className="block text-sm"
            />
            <p className="text-xs text-zinc-500">PDF, HTML, Markdown or plain text, up to 10 MB.</p>
          </div>
        )}

        <button type="submit" disabled={busy || !ready} className={primaryButton}>
          {busy
            ? mode === "url"
              ? "Fetching…"
              : "Adding…"
            : mode === "text"
              ? "Add text"
              : mode === "url"
                ? "Fetch and add"
                : "Upload"}
        </button>
      </form>
    </section>
  );
}
