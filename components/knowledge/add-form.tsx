"use client";

import { useTranslations } from "next-intl";
import { useActionState, useEffect, useId, useState } from "react";
import type { KnowledgeCategory } from "@/lib/research/ui";
import { idleState } from "@/lib/server/actions/action-state";
import { addKnowledgeAction } from "@/lib/server/actions/knowledge";
import { useActionErrorText } from "../action-error";
import { CategoryField, ContentField, validContent } from "./fields";
import type { KnowledgeItemView } from "./types";
import { useHydrated } from "./use-hydrated";

/** Adds an item through the add server action; works before hydration (the page then reloads). */
export function AddKnowledgeForm({ onAdded }: { onAdded: (item: KnowledgeItemView) => void }) {
  const id = useId();
  const hydrated = useHydrated();
  const [category, setCategory] = useState<KnowledgeCategory>("finding");
  const [content, setContent] = useState("");
  const [state, formAction, pending] = useActionState(addKnowledgeAction, idleState);
  const t = useTranslations("knowledge");
  const errorText = useActionErrorText();

  // A stored item joins the list and empties the form; an error keeps the text for another try.
  useEffect(() => {
    if (state.status !== "ok" || !state.data?.item) return;
    onAdded(state.data.item as KnowledgeItemView);
    setContent("");
  }, [state, onAdded]);

  return (
    <form
      action={formAction}
      aria-label={t("add.label")}
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 className="font-medium">{t("add.title")}</h2>
      <CategoryField id={`${id}-category`} value={category} onChange={setCategory} />
      <ContentField id={`${id}-content`} label={t("content")} value={content} onChange={setContent} />
      <p className="text-xs text-muted">{t("add.hint")}</p>
      {state.status === "error" && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {errorText(state)}
        </p>
      )}
      <button
        type="submit"
        // Before hydration the browser's own `required` checks the text.
        disabled={pending || (hydrated && !validContent(content))}
        className="rounded-lg bg-zinc-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900"
      >
        {pending ? t("add.adding") : t("add.submit")}
      </button>
    </form>
  );
}
