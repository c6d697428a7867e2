"use client";

import { useState } from "react";
import { AddDocument } from "./library/add-document";
import { DocumentTable } from "./library/document-table";
import { numberFormat } from "./library/format";
import type { LibraryDocumentView } from "./library/types";
import { errorMessage, readResponse } from "./read-response";

export type { LibraryDocumentView } from "./library/types";

export function LibraryManager({
  initial,
  isAdmin,
}: {
  initial: LibraryDocumentView[];
  /** Admins may share their own documents with every account. */
  isAdmin: boolean;
}) {
  const [documents, setDocuments] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);

  async function refresh() {
    const r = await fetch("/api/library", { cache: "no-store" });
    setDocuments((await readResponse<{ documents: LibraryDocumentView[] }>(r)).documents);
  }

  /** Adds a document through POST /api/library, then reloads the list; true when it was stored. */
  async function add(init: RequestInit): Promise<boolean> {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const { document } = await readResponse<{ document: LibraryDocumentView }>(
        await fetch("/api/library", { method: "POST", ...init }),
      );
      setNotice(`Added “${document.title}” (${numberFormat.format(document.chars)} characters).`);
      await refresh();
      return true;
    } catch (err) {
      setError(errorMessage(err));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function remove(doc: LibraryDocumentView) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await readResponse(await fetch(`/api/library/${doc.id}`, { method: "DELETE" }));
      setNotice(`Deleted “${doc.title}”.`);
      setConfirming(null);
      await refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function share(doc: LibraryDocumentView, shared: boolean) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await readResponse(
        await fetch(`/api/library/${doc.id}`, {
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ shared }),
        }),
      );
      setNotice(shared ? `Shared “${doc.title}” with everyone.` : `“${doc.title}” is no longer shared.`);
      await refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-8">
      <AddDocument busy={busy} onAdd={add} />

      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {notice && (
        <p role="status" className="text-sm text-green-700 dark:text-green-400">
          {notice}
        </p>
      )}

      <section aria-labelledby="library-documents" className="space-y-2">
        <h2 id="library-documents" className="text-lg font-medium">
          Documents <span className="text-sm font-normal text-muted">({documents.length})</span>
        </h2>
        {documents.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 p-6 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            The library is empty. Add a document above: research runs can only cite what they can find.
          </p>
        ) : (
          <DocumentTable
            documents={documents}
            confirming={confirming}
            busy={busy}
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
