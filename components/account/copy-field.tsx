"use client";

import { useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { inputClass, smallButton } from "./form-parts";

/**
 * A read-only value with a Copy button. The clipboard API needs a secure context (https or
 * localhost); elsewhere the text is selected and copied the older way, or left selected to copy by hand.
 */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const t = useTranslations("account.copy");

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(t("copied"));
    } catch {
      input.current?.select();
      const ok = document.execCommand?.("copy") ?? false;
      setCopied(ok ? t("copied") : t("selected"));
    }
  }

  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          onFocus={(e) => e.target.select()}
          className={`${inputClass} font-mono`}
        />
        <button type="button" onClick={copy} className={smallButton}>
          {t("copy")}
        </button>
      </div>
      <p role="status" className="text-xs text-green-700 dark:text-green-400">
        {copied}
      </p>
    </div>
  );
}
