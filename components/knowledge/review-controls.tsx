"use client";
/**
 * A card's review buttons. Each is a submit button of a small form posting to the review server
 * action, so a review works before the page's JavaScript has loaded; the hidden fields carry the
 * merged items' ids and the status to return to on undo.
 */
import { useTranslations } from "next-intl";
import type { KnowledgeStatus } from "@/lib/research/ui";

type FormAction = (form: FormData) => void;

const base =
  "inline-flex h-8 items-center gap-1 rounded-md border px-3 text-sm font-medium disabled:opacity-40";
export const neutralButton = `${base} border-zinc-300 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800`;
const approveButton = `${base} border-green-700 bg-green-700 text-white hover:bg-green-800 dark:border-green-600 dark:bg-green-700 dark:hover:bg-green-600`;
const rejectButton = `${base} border-red-300 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950`;

/** The short text an accessible name quotes, so "Approve" says which item it approves. */
export const shortText = (s: string) => (s.length > 60 ? `${s.slice(0, 59)}…` : s);

function Ids({ ids }: { ids: string[] }) {
  return ids.map((id) => <input key={id} type="hidden" name="id" value={id} />);
}

/** Approve (green, ✓) and reject (red, ✕), or — once reviewed here — what was done and its undo. */
export function ReviewButtons({
  ids,
  content,
  status,
  reviewedFrom,
  pending,
  formAction,
}: {
  ids: string[];
  content: string;
  status: KnowledgeStatus;
  /** Set when this card was approved or rejected on this page: the status undo returns to. */
  reviewedFrom?: KnowledgeStatus;
  pending: boolean;
  formAction: FormAction;
}) {
  const t = useTranslations("knowledge.review");
  const name = shortText(content);
  if (reviewedFrom) {
    const approved = status === "established";
    return (
      <form action={formAction} className="flex items-center gap-2">
        <Ids ids={ids} />
        <input type="hidden" name="previous" value={reviewedFrom} />
        <span
          data-testid="review-outcome"
          className={`inline-flex h-8 items-center gap-1 text-sm font-medium ${
            approved ? "text-green-800 dark:text-green-300" : "text-red-700 dark:text-red-300"
          }`}
        >
          <span aria-hidden="true">{approved ? "✓" : "✕"}</span> {approved ? t("approved") : t("rejected")}
        </span>
        <button
          type="submit"
          name="action"
          value="restore"
          disabled={pending}
          aria-label={t("undoItem", { name })}
          className={neutralButton}
        >
          {t("undo")}
        </button>
      </form>
    );
  }
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2">
      <Ids ids={ids} />
      <input type="hidden" name="previous" value={status} />
      {status !== "established" && (
        <button
          type="submit"
          name="action"
          value="approve"
          data-review="approve"
          disabled={pending}
          aria-label={t("approveItem", { name })}
          className={approveButton}
        >
          <span aria-hidden="true">✓</span> {t("approve")}
        </button>
      )}
      {status !== "deprecated" && (
        <button
          type="submit"
          name="action"
          value="reject"
          data-review="reject"
          disabled={pending}
          aria-label={t("rejectItem", { name })}
          className={rejectButton}
        >
          <span aria-hidden="true">✕</span> {t("reject")}
        </button>
      )}
    </form>
  );
}

/** Admins share their own items with every account, or take them back. */
export function ShareButton({
  ids,
  content,
  shared,
  pending,
  formAction,
}: {
  ids: string[];
  content: string;
  shared: boolean;
  pending: boolean;
  formAction: FormAction;
}) {
  const t = useTranslations("knowledge.review");
  const name = shortText(content);
  return (
    <form action={formAction}>
      <Ids ids={ids} />
      <button
        type="submit"
        name="action"
        value={shared ? "unshare" : "share"}
        disabled={pending}
        aria-label={shared ? t("unshareItem", { name }) : t("shareItem", { name })}
        className={neutralButton}
      >
        {shared ? t("unshare") : t("share")}
      </button>
    </form>
  );
}

/** The message after a review, with its undo; a live region, fixed so the list never moves. */
export function ReviewMessage({
  message,
  undo,
  pending,
  formAction,
}: {
  message: string;
  undo?: { ids: string[]; previous: KnowledgeStatus };
  pending: boolean;
  formAction: FormAction;
}) {
  const t = useTranslations("knowledge.review");
  return (
    <div className="fixed inset-x-4 bottom-4 z-20 flex justify-center">
      <div
        role="status"
        className="flex max-w-full items-center gap-3 rounded-lg border border-zinc-300 bg-white px-4 py-2 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
      >
        <span className="min-w-0 break-words">{message}</span>
        {undo && (
          <form action={formAction} className="shrink-0">
            <Ids ids={undo.ids} />
            <input type="hidden" name="previous" value={undo.previous} />
            <button type="submit" name="action" value="restore" disabled={pending} className={neutralButton}>
              {t("undo")}
            </button>
          </form>
        )}
      </div>
    </div>
  );
}
