"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

export function NewRunForm({ disabled }: { disabled?: boolean }) {
  const router = useRouter();
  const [question, setQuestion] = useState("");
  const [rounds, setRounds] = useState(3);
  const [clarification, setClarification] = useState(false);
  const [planReview, setPlanReview] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await fetch("/api/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          question,
          settings: { maxSupervisionRounds: rounds, clarification, planReview },
        }),
      });
      const body = await r.json();
      if (!r.ok) throw new Error(body?.error?.message ?? `HTTP ${r.status}`);
      router.push(`/runs/${body.id}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="New research run">
      <label htmlFor="question" className="sr-only">
        Research question
      </label>
      <textarea
        id="question"
        name="question"
        required
        minLength={3}
        rows={3}
        value={question}
        onChange={(e) => setQuestion(e.target.value)}
        placeholder="e.g. How do air-source heat pumps compare with gas boilers in cold climates?"
        className="w-full rounded-lg border border-zinc-300 bg-white p-3 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <div className="flex flex-wrap items-center gap-4 text-sm">
        <label className="flex items-center gap-2">
          Supervision rounds
          <input
            type="number"
            min={0}
            max={10}
            value={rounds}
            onChange={(e) => setRounds(Number(e.target.value))}
            className="w-16 rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={clarification}
            onChange={(e) => setClarification(e.target.checked)}
          />
          Ask me a clarifying question if needed
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={planReview} onChange={(e) => setPlanReview(e.target.checked)} />
          Let me review the plan first
        </label>
        <button
          type="submit"
          disabled={disabled || busy || question.trim().length < 3}
          className="ml-auto rounded-lg bg-zinc-900 px-4 py-2 font-medium text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900"
        >
          {busy ? "Starting…" : "Start research"}
        </button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}
