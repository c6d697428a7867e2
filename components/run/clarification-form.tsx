"use client";

import { useState } from "react";
import { postRunAction } from "./post-run-action";
import type { RunViewJson } from "./types";

/** The engine's clarifying question; answering it lets the run continue. */
export function ClarificationForm({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const [answer, setAnswer] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const question = run.clarificationQuestion ?? "";
  return (
    <form
      aria-label="Answer the clarifying question"
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950"
      onSubmit={async (e) => {
        e.preventDefault();
        setMessage(await postRunAction(run.id, "clarification", { answer }));
        onChanged();
      }}
    >
      <p className="font-medium">{question}</p>
      <textarea
        value={answer}
        onChange={(e) => setAnswer(e.target.value)}
        rows={2}
        className="w-full rounded border p-2 dark:bg-zinc-900"
      />
      <button
        type="submit"
        disabled={!answer.trim()}
        className="rounded bg-zinc-900 px-3 py-1 text-white disabled:opacity-40"
      >
        Answer and continue
      </button>
      {message && <p role="alert">{message}</p>}
    </form>
  );
}
