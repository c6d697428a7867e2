"use client";
/**
 * Models: a default model and one per role, each `provider:model-id` or a comma list of them (a chain
 * tried in order when a call fails), with the variables a role falls back along.
 */
import { useId, useState } from "react";
import { ROLES, type Role } from "@/lib/ai/roles";
import type { SettingsView } from "@/lib/server/settings/view";
import { AreaForm, SourceChoice, TextInput, useAreaSave } from "./settings-parts";

/** "MODEL_SUPERVISOR → MODEL" in words: "the supervisor model, then the default model". */
function fallbackWords(chain: string[]): string {
  const rest = chain
    .slice(1)
    .map((v) => (v === "MODEL" ? "the default model" : `the ${v.slice(6).toLowerCase()} model`));
  return `Empty: uses ${rest.join(", then ")} (${chain.join(" → ")}).`;
}

export function ModelsSettings({ view }: { view: SettingsView }) {
  const id = useId();
  const env = view.environment.models;
  const [useEnvironment, setUseEnvironment] = useState(view.models.useEnvironment);
  // Set here for the first time: start from what the environment says, so only the change is typed.
  const [model, setModel] = useState(view.models.model || env.model);
  const [roles, setRoles] = useState<Record<Role, string>>(
    Object.fromEntries(
      ROLES.map((r) => [r, view.models.roles[r] || (view.models.useEnvironment ? env.roles[r] : "")]),
    ) as Record<Role, string>,
  );
  const state = useAreaSave();
  const save = () => state.save({ models: { useEnvironment, model, roles } });
  const chainOf = (role: Role) => view.roles.find((r) => r.role === role)?.chain ?? [];
  return (
    <AreaForm
      id={`${id}-models`}
      title="Models"
      description="Each as provider:model-id, e.g. openai:gpt-4.1-mini or openai-compatible:llama3.1, or several separated by commas: a call that fails on the first (bad key, no quota, outage) goes on to the next. Changes apply to runs started afterwards."
      onSave={save}
      state={state}
    >
      <SourceChoice
        id={`${id}-models`}
        what="models"
        useEnvironment={useEnvironment}
        onChange={setUseEnvironment}
        environment={env.model ? `MODEL=${env.model}` : "MODEL is not set"}
      />
      <TextInput
        id={`${id}-default`}
        label="Default model (every role without its own)"
        value={model}
        onValue={setModel}
        disabled={useEnvironment}
        placeholder="openai-compatible:llama3.1"
      />
      <div className="grid gap-3 sm:grid-cols-2">
        {ROLES.map((role) => (
          <TextInput
            key={role}
            id={`${id}-role-${role}`}
            label={`${role[0].toUpperCase()}${role.slice(1)} model`}
            hint={fallbackWords(chainOf(role))}
            value={roles[role]}
            onValue={(v) => setRoles({ ...roles, [role]: v })}
            disabled={useEnvironment}
          />
        ))}
      </div>
      <table className="w-full border-collapse text-left text-xs">
        <caption className="text-left text-sm font-medium">Models runs get now</caption>
        <thead>
          <tr className="border-b border-zinc-200 dark:border-zinc-800">
            <th className="py-1 pr-2">Role</th>
            <th className="py-1 pr-2">Model</th>
            <th className="py-1">From</th>
          </tr>
        </thead>
        <tbody>
          {view.roles.map((r) => (
            <tr
              key={r.role}
              className="border-b border-zinc-100 dark:border-zinc-900"
              data-testid={`effective-${r.role}`}
            >
              <th scope="row" className="py-1 pr-2 font-normal">
                {r.role}
              </th>
              <td className="py-1 pr-2 font-mono">
                {r.models.length ? r.models.join(" → ") : (r.model ?? "none")}
              </td>
              <td className="py-1">
                {r.configured ? r.from : (r.problem ?? "not configured")}
                {r.skipped.map((w) => (
                  <span key={w} className="block text-amber-700 dark:text-amber-400">
                    Left out: {w}
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </AreaForm>
  );
}
