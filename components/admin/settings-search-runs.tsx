"use client";
/** Search providers with their keys, and the run defaults and ceilings. */
import { useId, useState } from "react";
import {
  type KeyedSearchProvider,
  keyedSearchProviders,
  type RunVariable,
  runVariableNames,
  runVariables,
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
const searchLabels: Record<(typeof searchNames)[number], string> = {
  library: "Document library",
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
      title="Search"
      description="Where runs search when they name no providers, and the keys of the web search services."
      onSave={save}
      state={state}
    >
      <SourceChoice
        id={`${id}-search`}
        what="search settings"
        useEnvironment={useEnvironment}
        onChange={setUseEnvironment}
        environment={`SEARCH_PROVIDERS=${env.providers}`}
      />
      <fieldset className="space-y-1" disabled={useEnvironment}>
        <legend className="text-sm font-medium">Search providers</legend>
        {searchNames.map((name) => (
          <label key={name} className="mr-4 inline-flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={providers.includes(name)}
              onChange={(e) => toggle(name, e.target.checked)}
            />
            {searchLabels[name]}
          </label>
        ))}
      </fieldset>
      <TextInput
        id={`${id}-searxng`}
        label="SearXNG URL"
        value={searxngUrl}
        onValue={setSearxngUrl}
        disabled={useEnvironment}
      />
      <div className="grid gap-3 sm:grid-cols-3">
        {keyedSearchProviders.map((k) => (
          <KeyField
            key={k}
            id={`${id}-key-${k}`}
            label={`${searchKeyLabels[k]} key`}
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
      title="Run limits"
      description="The default cost limit of a run and the most any run may ask for. Empty: the built-in default."
      onSave={save}
      state={state}
    >
      <SourceChoice
        id={`${id}-runs`}
        what="run limits"
        useEnvironment={useEnvironment}
        onChange={setUseEnvironment}
        environment="the RUN_* variables"
      />
      <div className="grid gap-3 sm:grid-cols-3">
        {runVariableNames.map((n) => (
          <TextInput
            key={n}
            id={`${id}-${n}`}
            label={runVariables[n].label}
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
