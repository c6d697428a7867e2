"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { markNotificationsReadAction } from "@/lib/server/actions/schedules";

const idle: ActionState = { status: "idle" };

/** "Mark all read" in the notices menu (a server-action form). */
export function MarkReadButton() {
  const t = useTranslations("notifications");
  const [, action, pending] = useActionState(markNotificationsReadAction, idle);
  return (
    <form action={action}>
      <button type="submit" disabled={pending} className="text-xs underline disabled:opacity-60">
        {t("markRead")}
      </button>
    </form>
  );
}
