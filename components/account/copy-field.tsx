"use client";

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

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("Copied to the clipboard.");
    } catch {
      input.current?.select();
      const ok = document.execCommand?.("copy") ?? false;
      setCopied(ok ? "Copied to the clipboard." : "Press Ctrl+C (⌘C) to copy the selected link.");
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
          Copy
        </button>
      </div>
      <p role="status" className="text-xs text-green-700 dark:text-green-400">
        {copied}
      </p>
    </div>
  );
}
