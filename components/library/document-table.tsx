import { SharedBadge } from "../account/shared-badge";
import { DataTable } from "../data-table";
import { formatDate, numberFormat, typeLabel } from "./format";
import { smallButton } from "./styles";
import type { LibraryDocumentView } from "./types";

interface RowActions {
  busy: boolean;
  /** The viewer is an admin: their own documents can be shared with every account. */
  canShare: boolean;
  onShare: (doc: LibraryDocumentView, shared: boolean) => void;
  /** Asks to confirm deleting the document (null: the question is withdrawn). */
  onConfirm: (id: string | null) => void;
  onDelete: (doc: LibraryDocumentView) => void;
}

/** Delete asks first: the row shows "Delete this document?" until the person confirms or keeps it. */
function DeleteCell({
  doc,
  confirming,
  busy,
  onConfirm,
  onDelete,
}: Omit<RowActions, "canShare" | "onShare"> & { doc: LibraryDocumentView; confirming: boolean }) {
  return confirming ? (
    <span className="inline-flex items-center gap-2">
      <span className="text-red-700 dark:text-red-400">Delete this document?</span>
      <button
        type="button"
        disabled={busy}
        onClick={() => onDelete(doc)}
        className="rounded border border-red-300 px-2 py-0.5 text-red-700 hover:bg-red-50 disabled:opacity-40 dark:border-red-800 dark:text-red-400 dark:hover:bg-red-950"
      >
        Yes, delete
      </button>
      <button type="button" onClick={() => onConfirm(null)} className={smallButton}>
        Keep
      </button>
    </span>
  ) : (
    <button
      type="button"
      disabled={busy}
      aria-label={`Delete ${doc.title}`}
      onClick={() => onConfirm(doc.id)}
      className={smallButton}
    >
      Delete
    </button>
  );
}

/** Share (admins) and delete, for the viewer's own documents only; a shared one of someone else's is read-only. */
function ActionsCell({
  doc,
  confirming,
  canShare,
  onShare,
  ...rest
}: RowActions & { doc: LibraryDocumentView; confirming: boolean }) {
  if (!doc.own) return <span className="text-muted">shared by an admin</span>;
  return (
    <span className="inline-flex items-center gap-2">
      {canShare && !confirming && (
        <button
          type="button"
          disabled={rest.busy}
          aria-label={`${doc.shared ? "Stop sharing" : "Share with everyone"}: ${doc.title}`}
          onClick={() => onShare(doc, !doc.shared)}
          className={smallButton}
        >
          {doc.shared ? "Stop sharing" : "Share with everyone"}
        </button>
      )}
      <DeleteCell doc={doc} confirming={confirming} {...rest} />
    </span>
  );
}

/** The stored documents: title, type, size, when added, where from, and the actions. */
export function DocumentTable({
  documents,
  confirming,
  ...actions
}: RowActions & { documents: LibraryDocumentView[]; confirming: string | null }) {
  return (
    <DataTable
      columns={[
        { name: "Title" },
        { name: "Type" },
        { name: "Size", align: "right" },
        { name: "Added" },
        { name: "Source" },
      ]}
    >
      {documents.map((doc) => (
        <tr key={doc.id} className="align-top">
          <td className="px-3 py-2">
            <span className="font-medium">{doc.title}</span> {doc.shared && <SharedBadge />}
          </td>
          <td className="px-3 py-2">{typeLabel(doc.mimeType)}</td>
          <td className="whitespace-nowrap px-3 py-2 text-right">{numberFormat.format(doc.chars)} chars</td>
          <td className="whitespace-nowrap px-3 py-2 text-muted">
            <time dateTime={doc.createdAt}>{formatDate(doc.createdAt)}</time>
          </td>
          <td className="max-w-xs truncate px-3 py-2">
            {doc.sourceUrl ? (
              <a
                href={doc.sourceUrl}
                rel="noreferrer noopener"
                target="_blank"
                className="text-blue-700 hover:underline dark:text-blue-400"
              >
                {doc.sourceUrl}
              </a>
            ) : (
              <span className="text-muted">added directly</span>
            )}
          </td>
          <td className="whitespace-nowrap px-3 py-2 text-right">
            <ActionsCell doc={doc} confirming={confirming === doc.id} {...actions} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
