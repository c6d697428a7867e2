"use client";

import { useTranslations } from "next-intl";
import { useRef } from "react";
import { terminalRunStatuses } from "@/lib/research/ui";
import { cancelRunAction, finishRunAction, runAgainAction } from "@/lib/server/actions/run-control";
import { ActionMessage, RunIdField } from "./action-message";
import { useRunAction } from "./post-run-action";
import { canSteer } from "./steer-form";
import type { RunViewJson } from "./types";

const button = "rounded border px-3 py-1 text-sm disabled:opacity-60";

/**
 * The run-wide actions. While it researches: stop and write the report from what was gathered.
 * Until it ends: cancel (after a confirmation; nothing is written). Once it ended: run again with
 * the same question and settings, or edit the question on the home page. The Markdown download
 * is in the report's own export bar.
 */
/** The server writes the report early only for a run that is researching (POST …/finish is 409 otherwise). */
function canFinish(run: RunViewJson): boolean {
  return run.status === "running" && run.phase === "supervision" && canSteer(run);
}

export function RunControls({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const ended = terminalRunStatuses.includes(run.status);
  return (
    <div className="flex flex-wrap items-start gap-3 text-sm">
      {canFinish(run) && <FinishControl run={run} onChanged={onChanged} />}
      {!ended && <CancelControl run={run} onChanged={onChanged} />}
      {ended && <AfterRunControls run={run} onChanged={onChanged} />}
    </div>
  );
}

/** Finish now: the run ends completed, its report marked partial. Once asked, the button goes. */
function FinishControl({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const { state, formAction, pending } = useRunAction(finishRunAction, onChanged);
  const t = useTranslations("run");
  return (
    <div>
      {state.status !== "ok" && (
        <form action={formAction}>
          <RunIdField runId={run.id} />
          <button
            type="submit"
            disabled={pending}
            className={`${button} border-zinc-400 dark:border-zinc-600`}
          >
            {t("controls.finish")}
          </button>
        </form>
      )}
      <ActionMessage state={state} okText={t("action.finishing")} />
    </div>
  );
}

/** Cancel asks first: a run cannot be resumed once cancelled. */
function CancelControl({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const { state, formAction, pending } = useRunAction(cancelRunAction, onChanged);
  const details = useRef<HTMLDetailsElement>(null);
  const t = useTranslations("run");
  return (
    <div>
      <details ref={details} className="group">
        <summary
          className={`${button} cursor-pointer list-none border-red-300 text-red-700 dark:border-red-800 dark:text-red-400`}
        >
          {t("controls.cancel")}
        </summary>
        <div className="mt-2 space-y-2 rounded border border-red-300 p-3 dark:border-red-800">
          <p>{t("controls.cancelQuestion")}</p>
          <form action={formAction} className="flex flex-wrap gap-2">
            <RunIdField runId={run.id} />
            <button
              type="submit"
              disabled={pending}
              className={`${button} border-red-700 bg-red-700 text-white dark:border-red-400 dark:bg-red-400 dark:text-zinc-950`}
            >
              {t("controls.cancelConfirm")}
            </button>
            <button
              type="button"
              onClick={() => details.current?.removeAttribute("open")}
              className={`${button} border-zinc-400 dark:border-zinc-600`}
            >
              {t("controls.keep")}
            </button>
          </form>
        </div>
      </details>
      <ActionMessage
        state={state}
        okText={
          state.status === "ok" && state.data?.status !== "cancelled"
            ? t("action.cancelling")
            : t("action.cancelled")
        }
      />
    </div>
  );
}

/** Run again (same question and settings, a new run) or change the question first. */
function AfterRunControls({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const { state, formAction, pending } = useRunAction(runAgainAction, onChanged);
  const t = useTranslations("run");
  return (
    <div className="flex flex-wrap items-center gap-2">
      <form action={formAction}>
        <RunIdField runId={run.id} />
        <button type="submit" disabled={pending} className={`${button} border-zinc-400 dark:border-zinc-600`}>
          {t("controls.runAgain")}
        </button>
      </form>
      <a href={`/?from=${run.id}`} className={`${button} border-zinc-400 dark:border-zinc-600`}>
        {t("controls.editQuestion")}
      </a>
      <ActionMessage state={state} okText={t("action.started")} />
    </div>
  );
}
