import { useTranslations } from "next-intl";
import { SharedBadge } from "../account/shared-badge";
import { DataTable } from "../data-table";
import { safeHref } from "../markdown-safety";
import { useDocumentFormat } from "./format";
import { smallButton } from "./styles";
import type { LibraryDocumentView } from "./types";

const linkClass = "font-medium text-blue-700 underline-offset-2 hover:underline dark:text-blue-400";

/** The title opens the document's page with its stored text. */
function DocumentLink({ doc }: { doc: LibraryDocumentView }) {
  return (
    <a href={`/library/${doc.id}`} className={`${linkClass} break-words`}>
      {doc.title}
    </a>
  );
}

/** The page a document was fetched from, as a link that opens it. */
export function SourceLink({ url }: { url: string }) {
  return (
    <a
      href={safeHref(url)}
      rel="noreferrer noopener"
      target="_blank"
      className="break-all text-blue-700 hover:underline dark:text-blue-400"
    >
      {url}
    </a>
  );
}

/** Where the document came from: the page it was fetched from, or added directly. */
function SourceCell({ doc }: { doc: LibraryDocumentView }) {
  const t = useTranslations("library.table");
  return doc.sourceUrl ? (
    <SourceLink url={doc.sourceUrl} />
  ) : (
    <span className="text-muted">{t("addedDirectly")}</span>
  );
}

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
  const t = useTranslations("library.table");
  return confirming ? (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className="text-red-700 dark:text-red-400">{t("deleteQuestion")}</span>
      <button
        type="button"
        disabled={busy}
        onClick={() => onDelete(doc)}
        className="rounded border border-red-300 px-2 py-0.5 text-red-700 hover:bg-red-50 disabled:opacity-40 dark:border-red-800 dark:text-red-400 dark:hover:bg-red-950"
      >
        {t("yesDelete")}
      </button>
      <button type="button" onClick={() => onConfirm(null)} className={smallButton}>
        {t("keep")}
      </button>
    </span>
  ) : (
    <button
      type="button"
      disabled={busy}
      aria-label={t("deleteItem", { title: doc.title })}
      onClick={() => onConfirm(doc.id)}
      className={smallButton}
    >
      {t("delete")}
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
  const t = useTranslations("library.table");
  if (!doc.own) return <span className="text-muted">{t("sharedByAdmin")}</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {canShare && !confirming && (
        <button
          type="button"
          disabled={rest.busy}
          aria-label={t(doc.shared ? "unshareItem" : "shareItem", { title: doc.title })}
          onClick={() => onShare(doc, !doc.shared)}
          className={smallButton}
        >
          {doc.shared ? t("unshare") : t("share")}
        </button>
      )}
      <DeleteCell doc={doc} confirming={confirming} {...rest} />
    </span>
  );
}

type ListProps = RowActions & { documents: LibraryDocumentView[]; confirming: string | null };

/** The documents as a table on wide screens and as cards on a phone (no sideways scrolling). */
export function DocumentList(props: ListProps) {
  return (
    <>
      <div className="hidden sm:block">
        <DocumentTable {...props} />
      </div>
      <DocumentCards {...props} />
    </>
  );
}

function DocumentCards({ documents, confirming, ...actions }: ListProps) {
  const t = useTranslations("library");
  const format = useDocumentFormat();
  return (
    <ul aria-label={t("documents")} className="space-y-2 sm:hidden">
      {documents.map((doc) => (
        <li
          key={doc.id}
          className="space-y-1 rounded-lg border border-zinc-200 bg-white p-3 text-sm dark:border-zinc-800 dark:bg-zinc-900"
        >
          <p>
            <DocumentLink doc={doc} /> {doc.shared && <SharedBadge />}
          </p>
          <p className="text-xs text-muted">
            {format.type(doc.mimeType)} · {format.chars(doc.chars)} ·{" "}
            <time dateTime={doc.createdAt}>{format.date(doc.createdAt)}</time>
          </p>
          <p className="text-xs">
            <SourceCell doc={doc} />
          </p>
          <div className="flex flex-wrap gap-2 pt-1">
            <ActionsCell doc={doc} confirming={confirming === doc.id} {...actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The stored documents: title, type, size, when added, where from, and the actions. */
function DocumentTable({ documents, confirming, ...actions }: ListProps) {
  const t = useTranslations("library.table");
  const format = useDocumentFormat();
  return (
    <DataTable
      columns={[
        { name: t("title") },
        { name: t("type") },
        { name: t("size"), align: "right" },
        { name: t("added") },
        { name: t("source") },
      ]}
    >
      {documents.map((doc) => (
        <tr key={doc.id} className="align-top">
          <td className="px-3 py-2">
            <DocumentLink doc={doc} /> {doc.shared && <SharedBadge />}
          </td>
          <td className="px-3 py-2">{format.type(doc.mimeType)}</td>
          <td className="whitespace-nowrap px-3 py-2 text-right">{format.chars(doc.chars)}</td>
          <td className="whitespace-nowrap px-3 py-2 text-muted">
            <time dateTime={doc.createdAt}>{format.date(doc.createdAt)}</time>
          </td>
          <td className="max-w-xs truncate px-3 py-2">
            <SourceCell doc={doc} />
          </td>
          <td className="whitespace-nowrap px-3 py-2 text-right">
            <ActionsCell doc={doc} confirming={confirming === doc.id} {...actions} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
