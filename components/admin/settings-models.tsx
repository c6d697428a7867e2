"use client";
/**
 * Models: a default model and one per role, each `provider:model-id` or a comma list of them (a chain
 * tried in order when a call fails), with the variables a role falls back along.
 */
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { ROLES, type Role } from "@/lib/ai/roles";
import type { SettingsView } from "@/lib/server/settings/view";
import { AreaForm, SourceChoice, TextInput, useAreaSave } from "./settings-parts";

type ModelsT = ReturnType<typeof useTranslations<"admin.settings.models">>;

/** "MODEL_SUPERVISOR → MODEL" in words: "the supervisor model, then the default model". */
function fallbackWords(chain: string[], t: ModelsT): string {
  const names = chain
    .slice(1)
    .map((v) => t("fallbackModel", { role: v === "MODEL" ? "default" : v.slice(6).toLowerCase() }));
  if (names.length === 0) return "";
  const models = names.reduceRight((rest, name) => t("fallbackThen", { first: name, rest }));
  return t("fallback", { models, chain: chain.join(" → ") });
}

/** Where a role's model comes from, from the view's words ("this page", "environment (MODEL_X)", "nowhere"). */
function fromWords(from: string, t: ModelsT): string {
  if (from === "this page") return t("fromPage");
  if (from === "nowhere") return t("fromNowhere");
  const variable = /^environment \((.+)\)$/.exec(from)?.[1];
  return variable ? t("fromEnvironment", { variable }) : from;
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
  const t = useTranslations("admin.settings.models");
  const save = () => state.save({ models: { useEnvironment, model, roles } });
  const chainOf = (role: Role) => view.roles.find((r) => r.role === role)?.chain ?? [];
  return (
    <AreaForm
      id={`${id}-models`}
      title={t("title")}
      saveLabel={t("save")}
      description={t("description")}
      onSave={save}
      state={state}
    >
      <SourceChoice
        id={`${id}-models`}
        legend={t("source")}
        useEnvironment={useEnvironment}
        onChange={setUseEnvironment}
        environment={env.model ? `MODEL=${env.model}` : t("modelUnset")}
      />
      <TextInput
        id={`${id}-default`}
        label={t("default")}
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
            label={t("roleModel", { role })}
            hint={fallbackWords(chainOf(role), t)}
            value={roles[role]}
            onValue={(v) => setRoles({ ...roles, [role]: v })}
            disabled={useEnvironment}
          />
        ))}
      </div>
      <table className="w-full border-collapse text-left text-xs">
        <caption className="text-left text-sm font-medium">{t("effective")}</caption>
        <thead>
          <tr className="border-b border-zinc-200 dark:border-zinc-800">
            <th className="py-1 pr-2">{t("role")}</th>
            <th className="py-1 pr-2">{t("model")}</th>
            <th className="py-1">{t("from")}</th>
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
                {t("roleName", { role: r.role })}
              </th>
              <td className="py-1 pr-2 font-mono">
                {r.models.length ? r.models.join(" → ") : (r.model ?? t("none"))}
              </td>
              <td className="py-1">
                {r.configured ? fromWords(r.from, t) : (r.problem ?? t("notConfigured"))}
                {r.skipped.map((w) => (
                  <span key={w} className="block text-amber-700 dark:text-amber-400">
                    {t("leftOut", { reason: w })}
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
