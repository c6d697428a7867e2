"use client";
/** Model providers: each one's key (write-only) and base URL (a proxy or gateway; required for OpenAI-compatible servers); and a Test button. */
import { useId, useState } from "react";
import { type ModelProvider, modelProviders, providerLabels } from "@/lib/jobs/settings-labels";
import type { SettingsView } from "@/lib/server/settings/service";
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

function envText(view: SettingsView, p: ModelProvider): string {
  const e = view.environment.providers[p];
  const key = e.keySet ? "key set" : "no key";
  if (p === "openai-compatible") return `${e.baseUrl || "no base URL"}, ${key}`;
  return e.baseUrl ? `${e.baseUrl}, ${key}` : key;
}

/** The model a role uses with this provider now, to test with by default. */
function modelInUse(view: SettingsView, p: ModelProvider): string {
  const spec = view.roles.find((r) => r.model?.startsWith(`${p}:`))?.model;
  return spec ? spec.slice(p.length + 1) : "";
}

function ProviderForm({ view, provider }: { view: SettingsView; provider: ModelProvider }) {
  const id = useId();
  const stored = view.providers[provider];
  const label = providerLabels[provider];
  const compatible = provider === "openai-compatible";
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
      description={`The ${label} provider (${provider}: models).`}
      onSave={save}
      state={state}
    >
      <SourceChoice
        id={`${id}-p`}
        what={`the ${label} settings`}
        useEnvironment={useEnvironment}
        onChange={setUseEnvironment}
        environment={envText(view, provider)}
      />
      <TextInput
        id={`${id}-url`}
        label="Base URL"
        hint={
          compatible
            ? "The server's OpenAI-compatible address, e.g. http://localhost:11434/v1 for Ollama. Trusted as configuration."
            : `Empty: ${label}'s own API. A proxy or gateway goes here; changing it needs the API key typed again.`
        }
        placeholder={stored.defaultBaseUrl}
        value={baseUrl}
        onValue={setBaseUrl}
        disabled={useEnvironment}
      />
      <KeyField
        id={`${id}-key`}
        label="API key"
        stored={stored.key}
        edit={key}
        onEdit={setKey}
        disabled={useEnvironment}
      />
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-64">
          <TextInput
            id={`${id}-test-model`}
            label="Model to test with"
            value={testModel}
            onValue={setTestModel}
            placeholder={compatible ? "empty: list the server's models" : "e.g. gpt-4.1-mini"}
            hint="Empty: the model a role uses with this provider, if any."
          />
        </div>
        <button type="button" className={smallButton} onClick={test} disabled={probe.busy}>
          {probe.busy ? "Testing…" : `Test ${label}`}
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
