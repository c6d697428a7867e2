"use client";
/** Model providers: each one's key (write-only) and base URL (a proxy or gateway; required for OpenAI-compatible servers); and a Test button. */
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { type ModelProvider, modelProviders, providerLabels } from "@/lib/server/settings/labels";
import type { SettingsView } from "@/lib/server/settings/view";
import { smallButton } from "../account/form-parts";
import { api } from "../api-client";
import { useFormState } from "../use-form-state";
import {
  AreaForm,
  type KeyEdit,
  KeyField,
  keyBody,
  noKeyEdit,
  SourceChoice,
  TextInput,
  useAreaSave,
} from "./settings-parts";

type ProvidersT = ReturnType<typeof useTranslations<"admin.settings.providers">>;

function envText(view: SettingsView, p: ModelProvider, t: ProvidersT): string {
  const e = view.environment.providers[p];
  const key = e.keySet ? t("keySet") : t("noKey");
  if (p === "openai-compatible") return `${e.baseUrl || t("noBaseUrl")}, ${key}`;
  return e.baseUrl ? `${e.baseUrl}, ${key}` : key;
}

/** The model a role uses with this provider now, to test with by default. */
function modelInUse(view: SettingsView, p: ModelProvider): string {
  const spec = view.roles.find((r) => r.model?.startsWith(`${p}:`))?.model;
  return spec ? spec.slice(p.length + 1) : "";
}

function ProviderForm({ view, provider }: { view: SettingsView; provider: ModelProvider }) {
  const id = useId();
  const t = useTranslations("admin.settings.providers");
  const stored = view.providers[provider];
  const compatible = provider === "openai-compatible";
  // Brand names stay as they are; only "OpenAI-compatible" has words to translate.
  const label = compatible ? t("compatibleName") : providerLabels[provider];
  const [useEnvironment, setUseEnvironment] = useState(stored.useEnvironment);
  const [key, setKey] = useState<KeyEdit>(noKeyEdit);
  const [baseUrl, setBaseUrl] = useState(stored.baseUrl || view.environment.providers[provider].baseUrl);
  const [testModel, setTestModel] = useState(modelInUse(view, provider));
  const probe = useFormState();
  const state = useAreaSave();

  async function save() {
    const ok = await state.save({
      providers: { [provider]: { useEnvironment, key: keyBody(key), baseUrl } },
    });
    if (ok) setKey(noKeyEdit);
  }

  /** The server answers a failed probe as {ok: false, message}: shown as the error it is. */
  const test = () =>
    probe.run(
      async () => {
        const result = await api<{ ok: boolean; message: string }>("/api/admin/settings/test", {
          method: "POST",
          body: { provider, model: testModel, ...(useEnvironment ? {} : { key: key.value, baseUrl }) },
        });
        if (!result.ok) throw new Error(result.message);
        return result;
      },
      { notice: (result) => result.message },
    );

  return (
    <AreaForm
      id={`${id}-p`}
      title={label}
      saveLabel={t("save", { name: label })}
      description={t("description", { name: label, provider })}
      onSave={save}
      state={state}
    >
      <SourceChoice
        id={`${id}-p`}
        legend={t("source", { name: label })}
        useEnvironment={useEnvironment}
        onChange={setUseEnvironment}
        environment={envText(view, provider, t)}
      />
      <TextInput
        id={`${id}-url`}
        label={t("baseUrl")}
        hint={compatible ? t("baseUrlCompatible") : t("baseUrlHosted", { name: label })}
        placeholder={stored.defaultBaseUrl}
        value={baseUrl}
        onValue={setBaseUrl}
        disabled={useEnvironment}
      />
      <KeyField
        id={`${id}-key`}
        label={t("apiKey")}
        stored={stored.key}
        edit={key}
        onEdit={setKey}
        disabled={useEnvironment}
      />
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-64">
          <TextInput
            id={`${id}-test-model`}
            label={t("testModel")}
            value={testModel}
            onValue={setTestModel}
            placeholder={compatible ? t("testModelCompatible") : t("testModelExample")}
            hint={t("testModelHint")}
          />
        </div>
        <button type="button" className={smallButton} onClick={test} disabled={probe.busy}>
          {probe.busy ? t("testing") : t("test", { name: label })}
        </button>
      </div>
      <p
        aria-live="polite"
        data-testid={`test-result-${provider}`}
        className={`text-sm ${probe.notice ? "text-green-700 dark:text-green-400" : "text-red-700 dark:text-red-400"}`}
      >
        {probe.notice ?? probe.error}
      </p>
    </AreaForm>
  );
}

export function ProvidersSettings({ view }: { view: SettingsView }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {modelProviders.map((p) => (
        <ProviderForm key={p} view={view} provider={p} />
      ))}
    </div>
  );
}
