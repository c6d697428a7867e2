"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { useHydrated } from "../knowledge/use-hydrated";
import { TextFields, type TextFormat, UrlField } from "./add-document-fields";
import { DropZone } from "./drop-zone";
import { inputClass, primaryButton } from "./styles";

type Mode = "text" | "url";
const MODES: { mode: Mode; words: "paste" | "fromUrl" }[] = [
  { mode: "text", words: "paste" },
  { mode: "url", words: "fromUrl" },
];

function submitLabel(mode: Mode, busy: boolean): "fetching" | "adding" | "addText" | "fetchAndAdd" {
  if (busy) return mode === "url" ? "fetching" : "adding";
  return mode === "text" ? "addText" : "fetchAndAdd";
}

/**
 * Adds a document: a file dropped or chosen in the drop zone, or (tabs) pasted text or a URL the
 * server fetches. Both forms post to the library's add server action; `added` changes after each
 * stored document, which empties the form it came from.
 */
export function AddDocument({
  formAction,
  pending,
  added,
}: {
  formAction: (form: FormData) => void;
  pending: boolean;
  added: { mode: string; at: unknown } | null;
}) {
  const t = useTranslations("library.add");
  const id = useId();
  const hydrated = useHydrated();
  const [mode, setMode] = useState<Mode>("text");
  const [title, setTitle] = useState("");
  const [text, setText] = useState("");
  const [format, setFormat] = useState<TextFormat>("text");
  const [url, setUrl] = useState("");

  useEffect(() => {
    if (!added || added.mode === "file") return;
    setTitle("");
    setText("");
    setUrl("");
  }, [added]);

  const ready = mode === "text" ? text.trim().length > 0 : url.trim().length > 0;
  const tabId = (m: Mode) => `${id}-tab-${m}`;
  const panelId = `${id}-panel`;

  return (
    <section
      aria-label={t("title")}
      className="space-y-4 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 className="font-medium">{t("title")}</h2>
      <DropZone
        formAction={formAction}
        pending={pending}
        uploaded={added?.mode === "file" ? added.at : null}
      />

      <div role="tablist" aria-label={t("tabs")} className="flex flex-wrap gap-2 text-sm">
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
            {t(m.words)}
          </button>
        ))}
      </div>
      <form
        id={panelId}
        role="tabpanel"
        aria-labelledby={tabId(mode)}
        action={formAction}
        className="space-y-3 text-sm"
      >
        <input type="hidden" name="mode" value={mode} />
        <div className="space-y-1">
          <label htmlFor={`${id}-title`} className="block font-medium">
            {t("docTitle")}
          </label>
          <input
            id={`${id}-title`}
            name="title"
            type="text"
            maxLength={500}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            placeholder={t("titlePlaceholder")}
            className={inputClass}
          />
        </div>
        {mode === "text" && (
          <TextFields id={id} format={format} onFormat={setFormat} text={text} onText={setText} />
        )}
        {mode === "url" && <UrlField id={id} url={url} onUrl={setUrl} />}
        <button type="submit" disabled={pending || (hydrated && !ready)} className={primaryButton}>
          {t(submitLabel(mode, pending))}
        </button>
      </form>
    </section>
  );
}
