"use client";
/** Search providers with their keys, and the run defaults and ceilings. */
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import {
  type KeyedSearchProvider,
  keyedSearchProviders,
  type RunVariable,
  runVariableNames,
  searchKeyLabels,
} from "@/lib/server/settings/labels";
import type { SettingsView } from "@/lib/server/settings/view";
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

const searchNames = ["library", "searxng", "tavily", "exa", "brave"] as const;
/** Brand names as they are; the document library is named in the page's language. */
const searchBrands: Record<Exclude<(typeof searchNames)[number], "library">, string> = {
  searxng: "SearXNG",
  tavily: "Tavily",
  exa: "Exa",
  brave: "Brave Search",
};

export function SearchSettings({ view }: { view: SettingsView }) {
  const id = useId();
  const env = view.environment.search;
  const [useEnvironment, setUseEnvironment] = useState(view.search.useEnvironment);
  const [providers, setProviders] = useState<string[]>(
    view.search.providers.length ? view.search.providers : env.providers.split(",").map((p) => p.trim()),
  );
  const [keys, setKeys] = useState<Record<KeyedSearchProvider, KeyEdit>>({
    tavily: noKeyEdit,
    exa: noKeyEdit,
    brave: noKeyEdit,
  });
  const [searxngUrl, setSearxngUrl] = useState(view.search.searxngUrl || env.searxngUrl);
  const state = useAreaSave();
  const t = useTranslations("admin.settings.search");
  async function save() {
    const keyBodies = Object.fromEntries(keyedSearchProviders.map((k) => [k, keyBody(keys[k])]));
    if (await state.save({ search: { useEnvironment, providers, keys: keyBodies, searxngUrl } })) {
      setKeys({ tavily: noKeyEdit, exa: noKeyEdit, brave: noKeyEdit });
    }
  }
  const toggle = (name: string, on: boolean) =>
    setProviders(on ? [...providers, name] : providers.filter((p) => p !== name));
  return (
    <AreaForm
      id={`${id}-search`}
      title={t("title")}
      saveLabel={t("save")}
      description={t("description")}
      onSave={save}
      state={state}
    >
      <SourceChoice
        id={`${id}-search`}
        legend={t("source")}
        useEnvironment={useEnvironment}
        onChange={setUseEnvironment}
        environment={`SEARCH_PROVIDERS=${env.providers}`}
      />
      <fieldset className="space-y-1" disabled={useEnvironment}>
        <legend className="text-sm font-medium">{t("providers")}</legend>
        {searchNames.map((name) => (
          <label key={name} className="mr-4 inline-flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={providers.includes(name)}
              onChange={(e) => toggle(name, e.target.checked)}
            />
            {name === "library" ? t("library") : searchBrands[name]}
          </label>
        ))}
      </fieldset>
      <TextInput
        id={`${id}-searxng`}
        label={t("searxngUrl")}
        value={searxngUrl}
        onValue={setSearxngUrl}
        disabled={useEnvironment}
      />
      <div className="grid gap-3 sm:grid-cols-3">
        {keyedSearchProviders.map((k) => (
          <KeyField
            key={k}
            id={`${id}-key-${k}`}
            label={t("key", { name: searchKeyLabels[k] })}
            stored={view.search.keys[k]}
            edit={keys[k]}
            onEdit={(e) => setKeys({ ...keys, [k]: e })}
            disabled={useEnvironment}
          />
        ))}
      </div>
    </AreaForm>
  );
}

export function RunSettings({ view }: { view: SettingsView }) {
  const id = useId();
  const [useEnvironment, setUseEnvironment] = useState(view.runs.useEnvironment);
  const [values, setValues] = useState<Record<RunVariable, string>>(
    Object.fromEntries(
      runVariableNames.map((n) => [n, String(view.runs.values[n] ?? view.environment.runs[n] ?? "")]),
    ) as Record<RunVariable, string>,
  );
  const state = useAreaSave();
  const t = useTranslations("admin.settings.runs");
  const save = () =>
    state.save({
      runs: {
        useEnvironment,
        values: Object.fromEntries(
          runVariableNames.flatMap((n) => (values[n].trim() ? [[n, Number(values[n])]] : [])),
        ),
      },
    });
  return (
    <AreaForm
      id={`${id}-runs`}
      title={t("title")}
      saveLabel={t("save")}
      description={t("description")}
      onSave={save}
      state={state}
    >
      <SourceChoice
        id={`${id}-runs`}
        legend={t("source")}
        useEnvironment={useEnvironment}
        onChange={setUseEnvironment}
        environment={t("environment")}
      />
      <div className="grid gap-3 sm:grid-cols-3">
        {runVariableNames.map((n) => (
          <TextInput
            key={n}
            id={`${id}-${n}`}
            label={t(`variables.${n}`)}
            hint={n}
            type="number"
            value={values[n]}
            onValue={(v) => setValues({ ...values, [n]: v })}
            disabled={useEnvironment}
          />
        ))}
      </div>
    </AreaForm>
  );
}
