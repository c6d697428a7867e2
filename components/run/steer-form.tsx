"use client";

import { useState } from "react";
import type { DirectivePriority } from "@/lib/research/vocabulary";
import { postRunAction } from "./post-run-action";
import { PrioritySelect } from "./priority-select";
import type { RunViewJson } from "./types";

/** Steering: the user adds a directive for the supervisor to schedule while the run is going. */
export function SteerForm({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const [topic, setTopic] = useState("");
  const [priority, setPriority] = useState<DirectivePriority>("normal");
  const [message, setMessage] = useState<string | null>(null);
  return (
    <form
      aria-label="Add a directive"
      className="flex gap-2 text-sm"
      onSubmit={async (e) => {
        e.preventDefault();
        const error = await postRunAction(run.id, "directives", { topic, priority });
        setMessage(error);
        if (!error) setTopic("");
        onChanged();
      }}
    >
      <input
        value={topic}
        onChange={(e) => setTopic(e.target.value)}
        placeholder="Steer: research this too…"
        className="flex-1 rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <PrioritySelect label="Priority of the new directive" value={priority} onChange={setPriority} />
      <button
        type="submit"
        disabled={topic.trim().length < 5}
        className="rounded bg-zinc-900 px-3 text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900"
      >
        Add
      </button>
      {message && <p role="alert">{message}</p>}
    </form>
  );
}
