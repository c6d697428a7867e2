"use client";

import { useActionState, useState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { revealWebhookSecretAction, rotateWebhookSecretAction } from "@/lib/server/actions/tokens";
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
  // The newer answer wins: a rotation after a reveal shows the new secret.
  const shown = secretOf(rotated) ?? secretOf(revealed);
  const error = [rotated, revealed].find((s) => s.status === "error");

  return (
    <section aria-labelledby="account-webhooks" className="space-y-3">
      <h2 id="account-webhooks" className="text-lg font-medium">
        Webhook signing secret
      </h2>
      <p className="max-w-2xl text-sm text-muted">
        A run with a webhook URL posts its result there when it completes or fails. Each post carries an{" "}
        <code>X-DeepResearch-Signature</code> made with this secret, so your receiver can check it came from
        here.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {!shown && (
          <form action={reveal}>
            <button type="submit" disabled={revealing} className={smallButton}>
              Reveal secret
            </button>
          </form>
        )}
        {!confirming ? (
          <button type="button" onClick={() => setConfirming(true)} className={smallButton}>
            Rotate secret
          </button>
        ) : (
          <form
            action={rotate}
            onSubmit={() => setConfirming(false)}
            className="flex flex-wrap items-center gap-2"
          >
            <span role="alert" className="text-sm">
              Make a new secret? Receivers checking the old one will reject webhooks until you update them.
            </span>
            <button type="submit" disabled={rotating} className={smallButton}>
              Yes, rotate
            </button>
            <button type="button" onClick={() => setConfirming(false)} className={smallButton}>
              Cancel
            </button>
          </form>
        )}
      </div>
      <div aria-live="polite" className="max-w-xl space-y-2">
        {shown && <CopyField label="Webhook signing secret" value={shown} />}
        <FormNotice message={rotated.status === "ok" ? rotated.message : null} />
      </div>
      <FormError message={error?.status === "error" ? error.message : null} />
    </section>
  );
}
