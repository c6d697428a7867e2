import { useTranslations } from "next-intl";
import { inputClass } from "./styles";

export type TextFormat = "text" | "markdown" | "html";

/** Pasted text and the format to read it as. */
export function TextFields({
  id,
  format,
  onFormat,
  text,
  onText,
}: {
  id: string;
  format: TextFormat;
  onFormat: (f: TextFormat) => void;
  text: string;
  onText: (t: string) => void;
}) {
  const t = useTranslations("library.add");
  return (
    <>
      <div className="flex items-center gap-2">
        <label htmlFor={`${id}-format`} className="font-medium">
          {t("format")}
        </label>
        <select
          id={`${id}-format`}
          name="format"
          value={format}
          onChange={(e) => onFormat(e.target.value as TextFormat)}
          className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
        >
          <option value="text">{t("formats.text")}</option>
          <option value="markdown">{t("formats.markdown")}</option>
          <option value="html">{t("formats.html")}</option>
        </select>
      </div>
      <div className="space-y-1">
        <label htmlFor={`${id}-text`} className="block font-medium">
          {t("text")}
        </label>
        <textarea
          id={`${id}-text`}
          name="text"
          required
          rows={8}
          value={text}
          onChange={(e) => onText(e.target.value)}
          className={`${inputClass} font-mono`}
        />
      </div>
    </>
  );
}

/** A page the server fetches once. */
export function UrlField({ id, url, onUrl }: { id: string; url: string; onUrl: (u: string) => void }) {
  const t = useTranslations("library.add");
  return (
    <div className="space-y-1">
      <label htmlFor={`${id}-url`} className="block font-medium">
        {t("url")}
      </label>
      <input
        id={`${id}-url`}
        name="url"
        type="url"
        required
        value={url}
        onChange={(e) => onUrl(e.target.value)}
        placeholder="https://example.org/article"
        className={inputClass}
      />
      <p className="text-xs text-muted">{t("urlHint")}</p>
    </div>
  );
}
