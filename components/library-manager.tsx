"use client";

import { useTranslations } from "next-intl";
import { useActionState, useEffect, useMemo, useState } from "react";
import { idleState } from "@/lib/server/actions/action-state";
import { addDocumentAction } from "@/lib/server/actions/library";
import { useActionErrorText } from "./action-error";
import { api } from "./api-client";
import { AddDocument } from "./library/add-document";
import { DocumentList } from "./library/document-table";
import type { LibraryDocumentView } from "./library/types";
import { useFormState } from "./use-form-state";

export type { LibraryDocumentView } from "./library/types";

type Message = { kind: "notice" | "error"; text: string };

export function LibraryManager({
  initial,
  isAdmin,
}: {
  initial: LibraryDocumentView[];
  /** Admins may share their own documents with every account. */
  isAdmin: boolean;
}) {
  const [documents, setDocuments] = useState(initial);
  // Adding goes through the server action (its answer is the message, also before hydration);
  // deleting and sharing use the API and set their own message, which replaces the action's.
  const [state, formAction, pending] = useActionState(addDocumentAction, idleState);
  const local = useFormState();
  const [confirming, setConfirming] = useState<string | null>(null);
  const t = useTranslations("library");
  const errorText = useActionErrorText();

  // One object per answer (not per render): the forms empty themselves when it changes.
  const added = useMemo(
    () =>
      state.status === "ok" && state.data?.document ? { mode: String(state.data.mode), at: state } : null,
    [state],
  );

  useEffect(() => {
    local.clear();
    if (state.status !== "ok" || !state.data?.document) return;
    const doc = state.data.document as LibraryDocumentView;
    setDocuments((prev) => [doc, ...prev.filter((d) => d.id !== doc.id)]);
  }, [state, local.clear]);

  const message: Message | null =
    (local.error ? { kind: "error", text: local.error } : null) ??
    (local.notice ? { kind: "notice", text: local.notice } : null) ??
    (state.status === "ok"
      ? { kind: "notice", text: addedText(state.data?.document) ?? state.message }
      : state.status === "error"
        ? { kind: "error", text: errorText(state) }
        : null);

  /** The add action's answer in the page's language, from the stored document it returns. */
  function addedText(document: unknown): string | null {
    const doc = document as Partial<LibraryDocumentView> | undefined;
    if (typeof doc?.title !== "string" || typeof doc.chars !== "number") return null;
    return t("added", { title: doc.title, chars: doc.chars });
  }

  async function refresh() {
    setDocuments((await api<{ documents: LibraryDocumentView[] }>("/api/library")).documents);
  }

  /** Runs a delete or share request, then reloads the list; `done` is the message on success. */
  const act = (request: () => Promise<unknown>, done: string) =>
    local.run(
      async () => {
        await request();
        setConfirming(null);
        await refresh();
      },
      { notice: done },
    );

  const remove = (doc: LibraryDocumentView) =>
    act(() => api(`/api/library/${doc.id}`, { method: "DELETE" }), t("deleted", { title: doc.title }));

  const share = (doc: LibraryDocumentView, shared: boolean) =>
    act(
      () => api(`/api/library/${doc.id}`, { method: "PATCH", body: { shared } }),
      t(shared ? "shared" : "unshared", { title: doc.title }),
    );

  return (
    <div className="space-y-8">
      <AddDocument formAction={formAction} pending={pending} added={added} />

      <div aria-live="polite">
        {message?.kind === "error" && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {message.text}
          </p>
        )}
        {message?.kind === "notice" && (
          <p role="status" className="text-sm text-green-700 dark:text-green-400">
            {message.text}
          </p>
        )}
      </div>

      <section aria-labelledby="library-documents" className="space-y-2">
        <h2 id="library-documents" className="text-lg font-medium">
          {t("documents")} <span className="text-sm font-normal text-muted">({documents.length})</span>
        </h2>
        {documents.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 p-6 text-sm text-muted dark:border-zinc-700">
            {t("empty")}
          </p>
        ) : (
          <DocumentList
            documents={documents}
            confirming={confirming}
            busy={local.busy || pending}
            canShare={isAdmin}
            onShare={share}
            onConfirm={setConfirming}
            onDelete={remove}
          />
        )}
      </section>
    </div>
  );
}
