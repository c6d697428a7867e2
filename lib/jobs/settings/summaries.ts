/**
 * Each settings change in words for the change record: "researcher model: a → b", "OpenAI key set
 * (…abcd)". A key appears only as its last four characters, never its value.
 */
import { resolveRole } from "../../ai/resolve.ts";
import { ROLES } from "../../ai/roles.ts";
import type { Env } from "../../env.ts";
import { settingsOverlay } from "./effective-config.ts";
import {
  keyedSearchProviders,
  modelProviders,
  providerLabels,
  runVariableNames,
  runVariables,
  type SealedKey,
  type SettingArea,
  type StoredSettings,
  searchKeyLabels,
} from "./schema.ts";

const mode = (useEnvironment: boolean | undefined) =>
  useEnvironment === false ? "set here" : "use environment";
const shown = (v: unknown) => (v === undefined || v === "" ? "not set" : String(v));

function modeChange(what: string, before?: { useEnvironment: boolean }, after?: { useEnvironment: boolean }) {
  const a = mode(before?.useEnvironment);
  const b = mode(after?.useEnvironment);
  return a === b ? [] : [`${what}: ${a} → ${b}`];
}

function keyChange(what: string, before?: SealedKey, after?: SealedKey): string[] {
  if (before?.sealed === after?.sealed) return [];
  return after ? [`${what} key set (…${after.last4})`] : [`${what} key cleared`];
}

function valueChange(what: string, before: unknown, after: unknown): string[] {
  return shown(before) === shown(after) ? [] : [`${what}: ${shown(before)} → ${shown(after)}`];
}

/** The model each role resolves to with only these model settings over the environment. */
function roleModels(s: StoredSettings, base: Env) {
  const env = { ...base, ...settingsOverlay({ models: s.models }, "").overlay };
  return Object.fromEntries(ROLES.map((role) => [role, resolveRole(role, { env }).spec?.id]));
}

export function changeSummaries(
  area: SettingArea,
  before: StoredSettings,
  after: StoredSettings,
  base: Env,
): string[] {
  switch (area) {
    case "models": {
      const was = roleModels(before, base);
      const now = roleModels(after, base);
      return [
        ...modeChange("models", before.models, after.models),
        ...valueChange("default model", before.models?.model, after.models?.model),
        ...ROLES.flatMap((role) => valueChange(`${role} model`, was[role], now[role])),
      ];
    }
    case "providers":
      return modelProviders.flatMap((name) => {
        const b = before.providers?.[name];
        const a = after.providers?.[name];
        const label = providerLabels[name];
        return [
          ...modeChange(label, b, a),
          ...keyChange(label, b?.key, a?.key),
          ...valueChange(`${label} base URL`, b?.baseUrl, a?.baseUrl),
        ];
      });
    case "search":
      return [
        ...modeChange("search", before.search, after.search),
        ...valueChange(
          "search providers",
          before.search?.providers.join(", "),
          after.search?.providers.join(", "),
        ),
        ...keyedSearchProviders.flatMap((name) =>
          keyChange(searchKeyLabels[name], before.search?.keys[name], after.search?.keys[name]),
        ),
        ...valueChange("SearXNG URL", before.search?.searxngUrl, after.search?.searxngUrl),
      ];
    case "runs":
      return [
        ...modeChange("run limits", before.runs, after.runs),
        ...runVariableNames.flatMap((name) =>
          valueChange(runVariables[name].label, before.runs?.values[name], after.runs?.values[name]),
        ),
      ];
  }
}
