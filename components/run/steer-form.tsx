"use client";

import { useState } from "react";
import type { DirectivePriority } from "@/lib/research/vocabulary";
import { PrioritySelect } from "./priority-select";

/** Steering: the user adds a directive for the supervisor to schedule while the run is going. */
export function SteerForm({
  onAdd,
}: {
  onAdd: (topic: string, priority: DirectivePriority) => Promise<boolean>;
}) {
  const [topic, setTopic] = useState("");
  const [priority, setPriority] = useState<DirectivePriority>("normal");
  return (
    <form
      aria-label="Add a directive"
      className="flex gap-2 text-sm"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await onAdd(topic, priority)) setTopic("");
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
    </form>
  );
}
