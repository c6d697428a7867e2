import { useTranslations } from "next-intl";
import { type KnowledgeCategory, knowledgeCategories } from "@/lib/research/ui";

/** The bounds POST /api/knowledge and PATCH /api/knowledge/:id enforce on an item's content. */
export const MAX_CONTENT_CHARS = 500;
const MIN_CONTENT_CHARS = 3;

export const validContent = (s: string) =>
  s.trim().length >= MIN_CONTENT_CHARS && s.trim().length <= MAX_CONTENT_CHARS;

export function ContentField({
  id,
  name = "content",
  label,
  value,
  onChange,
}: {
  id: string;
  name?: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const t = useTranslations("knowledge");
  const counterId = `${id}-counter`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        required
        rows={3}
        maxLength={MAX_CONTENT_CHARS}
        aria-describedby={counterId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="w-full rounded-lg border border-zinc-300 bg-white p-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      />
      <p id={counterId} className="text-right text-xs text-muted">
        {t("counter", { count: value.length, max: MAX_CONTENT_CHARS })}
      </p>
    </div>
  );
}

export function CategoryField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: KnowledgeCategory;
  onChange: (v: KnowledgeCategory) => void;
}) {
  const t = useTranslations("knowledge");
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium">
        {t("category")}
      </label>
      <select
        id={id}
        name="category"
        value={value}
        onChange={(e) => onChange(e.target.value as KnowledgeCategory)}
        className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {knowledgeCategories.map((c) => (
          <option key={c} value={c}>
            {t(`categories.${c}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
