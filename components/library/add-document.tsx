"use client";

import { useId, useRef, useState } from "react";
import { FileField, TextFields, type TextFormat, UrlField } from "./add-document-fields";
import { inputClass, primaryButton } from "./styles";

type Mode = "text" | "url" | "file";
const MODES: { mode: Mode; label: string }[] = [
  { mode: "text", label: "Paste text" },
  { mode: "url", label: "From a URL" },
  { mode: "file", label: "Upload a file" },
];

function submitLabel(mode: Mode, busy: boolean): string {
  if (busy) return mode === "url" ? "Fetching…" : "Adding…";
  return mode === "text" ? "Add text" : mode === "url" ? "Fetch and add" : "Upload";
}

/** Adds a document three ways (tabs): pasted text, a URL the server fetches, or an uploaded file. */
export function AddDocument({
  busy,
  onAdd,
}: {
  busy: boolean;
  onAdd: (init: RequestInit) => Promise<boolean>;
}) {
  const id = useId();
  const [mode, setMode] = useState<Mode>("text");
  const [title, setTitle] = useState("");
  const [text, setText] = useState("");
  const [format, setFormat] = useState<TextFormat>("text");
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
          <TextFields id={id} format={format} onFormat={setFormat} text={text} onText={setText} />
        )}
        {mode === "url" && <UrlField id={id} url={url} onUrl={setUrl} />}
        {mode === "file" && <FileField id={id} inputRef={fileInput} onFile={setFile} />}

        <button type="submit" disabled={busy || !ready} className={primaryButton}>
          {submitLabel(mode, busy)}
        </button>
      </form>
    </section>
  );
}
