"use client";

import { useId, useState } from "react";
import type { KnowledgeCategory } from "@/lib/research/vocabulary";
import { CategoryField, ContentField, validContent } from "./fields";

export function AddKnowledgeForm({
  onAdd,
}: {
  onAdd: (body: { category: KnowledgeCategory; content: string }) => Promise<boolean>;
}) {
  const id = useId();
  const [category, setCategory] = useState<KnowledgeCategory>("finding");
  const [content, setContent] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    if (await onAdd({ category, content: content.trim() })) setContent("");
    setBusy(false);
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Add knowledge item"
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 className="font-medium">Add an item</h2>
      <CategoryField id={`${id}-category`} value={category} onChange={setCategory} />
      <ContentField id={`${id}-content`} label="Content" value={content} onChange={setContent} />
      <p className="text-xs text-muted">
        Items you add are established at once and given to new research runs whose question they fit.
      </p>
      <button
        type="submit"
        disabled={busy || !validContent(content)}
        className="rounded-lg bg-zinc-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900"
      >
        {busy ? "Adding…" : "Add item"}
      </button>
    </form>
  );
}
