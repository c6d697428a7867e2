"use client";
/**
 * Upload by dropping a file on the box or choosing it with the (styled, labelled) file picker.
 * A plain form posting to the add server action: without JavaScript the picker and Upload button
 * still work; with it, a dropped file is put into the picker and uploaded at once.
 */
import { useFormatter, useTranslations } from "next-intl";
import { type DragEvent, useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "../knowledge/use-hydrated";
import { primaryButton } from "./styles";

const ACCEPT =
  ".pdf,.html,.htm,.xhtml,.md,.markdown,.txt,.text,application/pdf,text/html,text/markdown,text/plain";

export function DropZone({
  formAction,
  pending,
  uploaded,
}: {
  formAction: (form: FormData) => void;
  pending: boolean;
  /** Changes after each stored upload: the picker is emptied for the next file. */
  uploaded: unknown;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const t = useTranslations("library.upload");
  const format = useFormatter();

  useEffect(() => {
    if (!uploaded || !input.current) return;
    input.current.value = "";
    setName(null);
  }, [uploaded]);

  function drop(e: DragEvent<HTMLFormElement>) {
    e.preventDefault();
    setOver(false);
    const files = e.dataTransfer.files;
    if (!files.length || !input.current || pending) return;
    input.current.files = files;
    setName(files[0].name);
    form.current?.requestSubmit();
  }

  return (
    <form
      ref={form}
      action={formAction}
      aria-label={t("label")}
      data-testid="drop-zone"
      onDragEnter={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragOver={(e) => e.preventDefault()}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      // React empties the form after each answer; the chosen name goes with it.
      onReset={() => setName(null)}
      className={`relative space-y-2 rounded-lg border-2 border-dashed p-4 text-sm ${
        over
          ? "border-blue-600 bg-blue-50 dark:border-blue-400 dark:bg-blue-950"
          : "border-zinc-300 dark:border-zinc-700"
      }`}
    >
      <input type="hidden" name="mode" value="file" />
      <p className="font-medium">{t("drop")}</p>
      <label htmlFor={`${id}-file`} className="block font-medium">
        {t("file")}
      </label>
      <input
        id={`${id}-file`}
        ref={input}
        name="file"
        type="file"
        required
        accept={ACCEPT}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setName(e.target.files?.[0]?.name ?? null)}
        className="block w-full max-w-full text-sm file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-zinc-900 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-white hover:file:bg-zinc-700 focus-visible:outline-2 focus-visible:outline-blue-600 dark:file:bg-zinc-100 dark:file:text-zinc-900"
      />
      <p id={`${id}-hint`} className="text-xs text-muted">
        {t("hint", { size: format.number(10, { style: "unit", unit: "megabyte" }) })}
      </p>
      <button type="submit" disabled={pending || (hydrated && !name)} className={primaryButton}>
        {pending && name ? t("uploading", { name }) : t("submit")}
      </button>
    </form>
  );
}
