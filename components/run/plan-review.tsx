"use client";

import { useState } from "react";
import type { DirectivePriority } from "@/lib/research/vocabulary";
import { postRunAction } from "./post-run-action";
import { PrioritySelect } from "./priority-select";
import type { RunViewJson } from "./types";

/** One change to a proposed directive, as POST /api/runs/:id/directives takes it. */
export interface PlanEdit {
  id: string;
  drop?: boolean;
  priority?: DirectivePriority;
}

/** Plan review: the supervisor's proposed directives, each can be dropped or re-prioritised before research starts. */
export function PlanReview({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const directives = run.directives.filter((d) => d.status === "pending");
  const [message, setMessage] = useState<string | null>(null);
  const onApprove = async (edits: PlanEdit[]) => {
    setMessage(await postRunAction(run.id, "directives", { approvePlan: true, edits }));
    onChanged();
  };
  const [dropped, setDropped] = useState<Set<string>>(new Set());
  const [priorities, setPriorities] = useState<Record<string, DirectivePriority>>({});
  return (
    <section
      aria-label="Plan review"
      className="space-y-3 rounded-lg border border-blue-300 bg-blue-50 p-4 text-sm dark:border-blue-800 dark:bg-blue-950"
    >
      <h2 className="font-medium">Review the research plan</h2>
      <p>
        The supervisor proposes these directives. Drop or re-prioritise any, then approve to start the
        research.
      </p>
      <ul className="space-y-2">
        {directives.map((d) => (
          <li key={d.id} className="flex items-start gap-3">
            <label className="flex items-center gap-1 whitespace-nowrap">
              <input
                type="checkbox"
                checked={dropped.has(d.id)}
                onChange={(e) => {
                  const next = new Set(dropped);
                  if (e.target.checked) next.add(d.id);
                  else next.delete(d.id);
                  setDropped(next);
                }}
              />
              drop
            </label>
            <PrioritySelect
              label={`Priority of: ${d.topic.slice(0, 60)}`}
              value={priorities[d.id] ?? d.priority}
              onChange={(p) => setPriorities({ ...priorities, [d.id]: p })}
            />
            <span className={dropped.has(d.id) ? "line-through opacity-60" : ""}>{d.topic}</span>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() =>
          onApprove(
            directives
              .map((d) => ({
                id: d.id,
                ...(dropped.has(d.id) ? { drop: true } : {}),
                ...(priorities[d.id] && priorities[d.id] !== d.priority
                  ? { priority: priorities[d.id] }
                  : {}),
              }))
              .filter((e) => Object.keys(e).length > 1),
          )
        }
        className="rounded bg-zinc-900 px-3 py-1 font-medium text-white dark:bg-zinc-100 dark:text-zinc-900"
      >
        Approve plan and start research
      </button>
      {message && <p role="alert">{message}</p>}
    </section>
  );
}
