/**
 * The header's notices menu: a bell with the unread count, opening the latest notices, each linking
 * to its run (a new version that differs from the one before; a schedule paused by limits).
 */
import { headers } from "next/headers";
import { getLocale, getTranslations } from "next-intl/server";
import { cache } from "react";
import { sessionCallerFromHeaders } from "@/lib/server/auth/caller";
import { listMyNotifications, type NotificationList } from "@/lib/server/notifications/notifications";
import { serverRuntime } from "@/lib/server/runtime";
import type { ErrorTranslator } from "../error-text";
import { MarkReadButton } from "./mark-read-button";
import { type PausedErrorView, pausedText } from "./paused-text";

// Once per request: the header places the menu twice (wide screens, phone menu).
const myNotices = cache(async (): Promise<NotificationList | null> => {
  const requestHeaders = await headers();
  try {
    const caller = await sessionCallerFromHeaders(requestHeaders);
    return caller ? await listMyNotifications(await serverRuntime(), caller.userId) : null;
  } catch {
    return null; // the database is unreachable: the page itself says so
  }
});

export async function NotificationsMenu() {
  const list = await myNotices();
  if (!list) return null;
  const t = await getTranslations("notifications");
  const locale = await getLocale();
  const errors = (await getTranslations("errors")) as unknown as ErrorTranslator;
  const paused = (data: Record<string, unknown>) =>
    pausedText(String(data.reason ?? ""), data as unknown as PausedErrorView, locale, errors);
  return (
    <details className="relative text-sm" data-testid="notifications-menu">
      <summary className="cursor-pointer list-none" aria-label={t("label", { count: list.unread })}>
        <span aria-hidden="true">🔔</span>
        {list.unread > 0 && (
          <span
            className="ml-1 rounded-full bg-amber-600 px-1.5 text-xs text-white"
            data-testid="unread-count"
          >
            {list.unread}
          </span>
        )}
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-80 space-y-2 rounded border border-zinc-200 bg-white p-3 shadow dark:border-zinc-800 dark:bg-zinc-900">
        {list.notifications.length === 0 ? (
          <p className="text-muted">{t("empty")}</p>
        ) : (
          <>
            <ul className="space-y-2">
              {list.notifications.map((n) => (
                <li key={n.id} className={n.readAt ? "text-muted" : "font-medium"}>
                  <a href={`/runs/${n.runId}`} className="hover:underline">
                    {n.kind === "version_ready"
                      ? t("versionReady", changes(n.data))
                      : t("schedulePaused", { reason: paused(n.data) })}
                  </a>
                </li>
              ))}
            </ul>
            {list.unread > 0 && <MarkReadButton />}
          </>
        )}
      </div>
    </details>
  );
}

/** The diff's counts of a version_ready notice, as the message's numbers. */
function changes(data: Record<string, unknown>): { claims: number; sources: number } {
  const diff = data.diff as { claims?: Record<string, number>; sources?: Record<string, number> } | undefined;
  const sum = (o?: Record<string, number>) =>
    Object.values(o ?? {}).reduce((a, b) => a + (Number(b) || 0), 0);
  return { claims: sum(diff?.claims), sources: diff?.sources?.changed ?? 0 };
}
