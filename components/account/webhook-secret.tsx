"use client";

import { useTranslations } from "next-intl";
import { useActionState, useState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { revealWebhookSecretAction, rotateWebhookSecretAction } from "@/lib/server/actions/tokens";
import { useActionError } from "../action-error";
import { CopyField } from "./copy-field";
import { FormError, FormNotice, smallButton } from "./form-parts";

const idle: ActionState = { status: "idle" };

const secretOf = (s: ActionState) =>
  s.status === "ok" && typeof s.data?.secret === "string" ? s.data.secret : null;

/**
 * The secret webhooks are signed with (HMAC-SHA256; see docs/usage.md, "Webhooks"). Hidden until
 * asked for; rotating makes a new one at once, so a receiver must be given the new one.
 */
export function WebhookSecretPanel() {
  const [revealed, reveal, revealing] = useActionState(revealWebhookSecretAction, idle);
  const [rotated, rotate, rotating] = useActionState(rotateWebhookSecretAction, idle);
  const [confirming, setConfirming] = useState(false);
  const t = useTranslations("account.webhook");
  const actionError = useActionError();
  // The newer answer wins: a rotation after a reveal shows the new secret.
  const shown = secretOf(rotated) ?? secretOf(revealed);
  const error = [rotated, revealed].find((s) => s.status === "error");

  return (
    <section aria-labelledby="account-webhooks" className="space-y-3">
      <h2 id="account-webhooks" className="text-lg font-medium">
        {t("title")}
      </h2>
      <p className="max-w-2xl text-sm text-muted">
        {t.rich("intro", { code: (chunks) => <code>{chunks}</code> })}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {!shown && (
          <form action={reveal}>
            <button type="submit" disabled={revealing} className={smallButton}>
              {t("reveal")}
            </button>
          </form>
        )}
        {!confirming ? (
          <button type="button" onClick={() => setConfirming(true)} className={smallButton}>
            {t("rotate")}
          </button>
        ) : (
          <form
            action={rotate}
            onSubmit={() => setConfirming(false)}
            className="flex flex-wrap items-center gap-2"
          >
            <span role="alert" className="text-sm">
              {t("rotateAsk")}
            </span>
            <button type="submit" disabled={rotating} className={smallButton}>
              {t("rotateConfirm")}
            </button>
            <button type="button" onClick={() => setConfirming(false)} className={smallButton}>
              {t("cancel")}
            </button>
          </form>
        )}
      </div>
      <div aria-live="polite" className="max-w-xl space-y-2">
        {shown && <CopyField label={t("title")} value={shown} />}
        <FormNotice message={rotated.status === "ok" ? t("rotated") : null} />
      </div>
      <FormError message={actionError(error)} />
    </section>
  );
}
