"use client";

import { useActionState, useEffect, useId, useState } from "react";
import type { KnowledgeCategory } from "@/lib/research/ui";
import { idleState } from "@/lib/server/actions/action-state";
import { addKnowledgeAction } from "@/lib/server/actions/knowledge";
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

  // A stored item joins the list and empties the form; an error keeps the text for another try.
  useEffect(() => {
    if (state.status !== "ok" || !state.data?.item) return;
    onAdded(state.data.item as KnowledgeItemView);
    setContent("");
  }, [state, onAdded]);

  return (
    <form
      action={formAction}
      aria-label="Add knowledge item"
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 className="font-medium">Add an item</h2>
      <CategoryField id={`${id}-category`} value={category} onChange={setCategory} />
      <ContentField id={`${id}-content`} label="Content" value={content} onChange={setContent} />
      <p className="text-xs text-muted">
        Items you add are established at once and given to new research runs whose question they fit.
      </p>
      {state.status === "error" && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {state.message}
        </p>
      )}
      <button
        type="submit"
        // Before hydration the browser's own `required` checks the text.
        disabled={pending || (hydrated && !validContent(content))}
        className="rounded-lg bg-zinc-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900"
      >
        {pending ? "Adding…" : "Add item"}
      </button>
    </form>
  );
}
