"use client";

import { useState } from "react";
import { terminalRunStatuses } from "@/lib/research/vocabulary";
import { postRunAction } from "./post-run-action";
import type { RunViewJson } from "./types";

/** The run-wide actions: cancel while it is going, the Markdown download once there is a report. */
export function RunControls({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const [message, setMessage] = useState<string | null>(null);
  const done = terminalRunStatuses.includes(run.status);
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      {!done && (
        <button
          type="button"
          onClick={async () => {
            setMessage(await postRunAction(run.id, "cancel"));
            onChanged();
          }}
          className="rounded border border-red-300 px-2 py-0.5 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-400"
        >
          Cancel
        </button>
      )}
      {run.report && (
        <a href={`/api/runs/${run.id}/report.md`} className="text-blue-700 underline dark:text-blue-400">
          Download Markdown
        </a>
      )}
      {message && (
        <p role="alert" className="text-amber-700 dark:text-amber-400">
          {message}
        </p>
      )}
    </div>
  );
}
