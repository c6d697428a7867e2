"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import { approvePlanAction } from "@/lib/server/actions/run-control";
import { ActionMessage, RunIdField } from "./action-message";
import { useRunAction } from "./post-run-action";
import { PrioritySelect } from "./priority-select";
import type { DirectiveView, RunViewJson } from "./types";

const field =
  "w-full rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900";

/**
 * Plan review: the supervisor's proposed directives, before any research. Each topic can be
 * reworded, re-prioritised or removed, and a directive of the person's own added; approving
 * starts the research. The originals travel as hidden fields so only real changes are edits.
 */
export function PlanReview({ run, onChanged }: { run: RunViewJson; onChanged: () => void }) {
  const { state, formAction, pending } = useRunAction(approvePlanAction, onChanged);
  const t = useTranslations("run");
  const id = useId();
  const directives = run.directives.filter((d) => d.status === "pending");
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-lg border border-blue-300 bg-blue-50 p-4 text-sm dark:border-blue-800 dark:bg-blue-950"
    >
      <h2 id={`${id}-title`} className="font-medium">
        {t("plan.title")}
      </h2>
      <p>{t("plan.intro")}</p>
      <form action={formAction} className="space-y-4">
        <RunIdField runId={run.id} />
        <ol className="space-y-3">
          {directives.map((d, i) => (
            <PlanItem key={d.id} directive={d} n={i + 1} prefix={id} />
          ))}
        </ol>
        <fieldset className="space-y-2 rounded border border-blue-200 p-3 dark:border-blue-900">
          <legend className="px-1 font-medium">{t("plan.add")}</legend>
          <label htmlFor={`${id}-new`} className="block">
            {t("plan.newTopic")}
          </label>
          <input id={`${id}-new`} name="newTopic" maxLength={2000} className={field} />
          <label htmlFor={`${id}-new-priority`} className="mr-2">
            {t("plan.newPriority")}
          </label>
          <PrioritySelect id={`${id}-new-priority`} name="newPriority" />
        </fieldset>
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-zinc-900 px-3 py-1 font-medium text-white disabled:opacity-60 dark:bg-zinc-100 dark:text-zinc-900"
        >
          {t("plan.approve")}
        </button>
        <ActionMessage state={state} okText={t("action.approved")} />
      </form>
    </section>
  );
}

function PlanItem({ directive: d, n, prefix }: { directive: DirectiveView; n: number; prefix: string }) {
  const t = useTranslations("run.plan");
  const key = `${prefix}-${d.id}`;
  return (
    <li className="space-y-1 rounded border border-blue-200 bg-white p-3 dark:border-blue-900 dark:bg-zinc-950">
      <input type="hidden" name="directive" value={d.id} />
      <input type="hidden" name={`original-topic.${d.id}`} value={d.topic} />
      <input type="hidden" name={`original-priority.${d.id}`} value={d.priority} />
      <label htmlFor={`${key}-topic`} className="block font-medium">
        {t("topic", { n })}
      </label>
      <textarea
        id={`${key}-topic`}
        name={`topic.${d.id}`}
        defaultValue={d.topic}
        rows={2}
        minLength={5}
        maxLength={2000}
        className={field}
      />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <span>
          <label htmlFor={`${key}-priority`} className="mr-2">
            {t("topicPriority", { n })}
          </label>
          <PrioritySelect id={`${key}-priority`} name={`priority.${d.id}`} defaultValue={d.priority} />
        </span>
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            name="remove"
            value={d.id}
            aria-label={t("removeLabel", { topic: d.topic })}
          />
          {t("remove")}
        </label>
      </div>
    </li>
  );
}
