"use client";
/** The pieces every settings area is made of: where its values come from, a key field, saving. */
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { KeyState } from "@/lib/server/settings/view";
import { FormError, FormNotice, inputClass, SubmitButton } from "../account/form-parts";
import { api } from "../api-client";
import { useFormState } from "../use-form-state";

export const cardClass =
  "space-y-4 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900";

/** Saves one area with PUT /api/admin/settings; says what changed, or why it was refused. */
export function useAreaSave() {
  const router = useRouter();
  const { busy, error, notice, run } = useFormState();
  const t = useTranslations("admin.settings");
  async function save(body: Record<string, unknown>): Promise<boolean> {
    // The changes are the server's own summary lines (the same the change list shows).
    const saved = await run(
      () => api<{ changes: string[] }>("/api/admin/settings", { method: "PUT", body }),
      {
        notice: (r) => (r.changes.length ? t("saved", { changes: r.changes.join("; ") }) : t("savedNothing")),
      },
    );
    if (saved) router.refresh();
    return saved;
  }
  return { busy, error, notice, save };
}

/** One area's form: a titled card, its fields, a Save button and the result read out politely. */
export function AreaForm({
  id,
  title,
  saveLabel,
  description,
  onSave,
  state,
  children,
}: {
  id: string;
  title: string;
  /** The Save button's words, e.g. "Save models". */
  saveLabel: string;
  description: ReactNode;
  onSave: () => void;
  state: ReturnType<typeof useAreaSave>;
  children: ReactNode;
}) {
  const t = useTranslations("admin.settings");
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass}>
      <h2 id={`${id}-title`} className="text-lg font-medium">
        {title}
      </h2>
      <p className="text-sm text-muted">{description}</p>
      <form
        aria-labelledby={`${id}-title`}
        aria-busy={state.busy}
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
      >
        {children}
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton busy={state.busy} busyLabel={t("saving")}>
            {saveLabel}
          </SubmitButton>
        </div>
        <div aria-live="polite">
          <FormNotice message={state.notice} />
        </div>
        <FormError message={state.error} />
      </form>
    </section>
  );
}

/** "Use environment" (the default) or "Set here", as a radio group named by `legend` ("Where … come from"). */
export function SourceChoice({
  id,
  legend,
  useEnvironment,
  onChange,
  environment,
}: {
  id: string;
  legend: string;
  useEnvironment: boolean;
  onChange: (useEnvironment: boolean) => void;
  environment: string;
}) {
  const t = useTranslations("admin.settings");
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium">{legend}</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name={`${id}-source`} checked={useEnvironment} onChange={() => onChange(true)} />
        {t("useEnvironment")} <span className="text-muted">({environment})</span>
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="radio"
          name={`${id}-source`}
          checked={!useEnvironment}
          onChange={() => onChange(false)}
        />
        {t("setHere")}
      </label>
    </fieldset>
  );
}

export function TextInput({
  id,
  label,
  hint,
  value,
  onValue,
  disabled,
  type = "text",
  placeholder,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onValue: (v: string) => void;
  disabled?: boolean;
  type?: string;
  placeholder?: string;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        disabled={disabled}
        placeholder={placeholder}
        onChange={(e) => onValue(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={inputClass}
        spellCheck={false}
        autoComplete="off"
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
    </div>
  );
}

export type KeyEdit = { value: string; clear: boolean };
export const noKeyEdit: KeyEdit = { value: "", clear: false };

/** A write-only key: the stored key shows only as its last four characters; empty keeps it. */
export function KeyField({
  id,
  label,
  stored,
  edit,
  onEdit,
  disabled,
}: {
  id: string;
  label: string;
  stored: KeyState;
  edit: KeyEdit;
  onEdit: (e: KeyEdit) => void;
  disabled?: boolean;
}) {
  const t = useTranslations("admin.settings");
  const hint = stored.set ? t("keyStored", { last4: stored.last4 ?? "" }) : t("noKey");
  return (
    <div className="space-y-1">
      <TextInput
        id={id}
        label={label}
        type="password"
        hint={hint}
        value={edit.value}
        onValue={(value) => onEdit({ ...edit, value })}
        disabled={disabled || edit.clear}
      />
      {stored.set && (
        <label className="flex items-center gap-2 text-xs">
          <input
            type="checkbox"
            checked={edit.clear}
            disabled={disabled}
            onChange={(e) => onEdit({ value: "", clear: e.target.checked })}
          />
          {t("removeKey")}
        </label>
      )}
    </div>
  );
}

/** A key edit as the API takes it: nothing (keep), a new value, or clear. */
export function keyBody(edit: KeyEdit): { value?: string; clear?: boolean } | undefined {
  if (edit.clear) return { clear: true };
  return edit.value.trim() ? { value: edit.value.trim() } : undefined;
}
