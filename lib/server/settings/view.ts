/**
 * What the admin sees on the settings page (GET /api/admin/settings): stored choices, what the
 * environment says, the resulting model per role and the change record — keys only as set/not set
 * and their last four characters. Saving is save.ts.
 */
import { listSettingsChanges, readAppSettings } from "../../../db/queries/settings.ts";
import { modelConfigStatus, type RoleStatus } from "../../ai/config-status.ts";
import { BASE_URL_VARIABLE, DEFAULT_BASE_URL } from "../../ai/providers.ts";
import { chainVariables, ROLES, type Role, roleVariable } from "../../ai/roles.ts";
import type { Env } from "../../env.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import {
  effectiveConfig,
  parseStoredSettings,
  providerKeyVariable,
  searchKeyVariable,
} from "../../jobs/settings/effective-config.ts";
import {
  type KeyedSearchProvider,
  keyedSearchProviders,
  type ModelProvider,
  modelProviders,
  type RunVariable,
  runVariableNames,
  type SealedKey,
} from "../../jobs/settings/schema.ts";

export type KeyState = { set: boolean; last4: string | null };

export interface SettingsView {
  models: { useEnvironment: boolean; model: string; roles: Record<Role, string> };
  /** `defaultBaseUrl`: the provider's own API, called when no base URL is set (none for openai-compatible). */
  providers: Record<
    ModelProvider,
    { useEnvironment: boolean; key: KeyState; baseUrl: string; defaultBaseUrl: string }
  >;
  search: {
    useEnvironment: boolean;
    providers: string[];
    keys: Record<KeyedSearchProvider, KeyState>;
    searxngUrl: string;
  };
  runs: { useEnvironment: boolean; values: Partial<Record<RunVariable, number>> };
  /** What the environment alone says (keys only as set or not). */
  environment: {
    models: { model: string; roles: Record<Role, string> };
    providers: Record<ModelProvider, { keySet: boolean; baseUrl: string }>;
    search: { providers: string; keysSet: Record<KeyedSearchProvider, boolean>; searxngUrl: string };
    runs: Partial<Record<RunVariable, string>>;
  };
  /** The model each role gets now, where it comes from and the chain it falls back along. */
  roles: (Pick<RoleStatus, "role" | "configured" | "model" | "models" | "skipped" | "problem"> & {
    chain: string[];
    from: string;
  })[];
  problems: string[];
  changes: { id: string; at: string; by: string; area: string; summary: string }[];
}

const keyState = (k: SealedKey | undefined): KeyState => ({ set: Boolean(k), last4: k?.last4 ?? null });
const text = (env: Env, name: string) => env[name]?.trim() ?? "";

/** A URL without its user and password (an environment URL may carry credentials). */
function withoutCredentials(url: string): string {
  if (!URL.canParse(url)) return url;
  const u = new URL(url);
  if (!u.username && !u.password) return url;
  u.username = "";
  u.password = "";
  return u.toString();
}

export async function settingsView(rt: Runtime, base: Env = process.env): Promise<SettingsView> {
  const db = rt.handle.db;
  const { settings } = parseStoredSettings(await readAppSettings(db));
  const effective = await effectiveConfig(db, base);
  return {
    ...storedView(settings),
    environment: environmentView(base),
    roles: rolesView(effective),
    problems: effective.problems,
    changes: (await listSettingsChanges(db)).map((c) => ({
      id: c.id,
      at: c.createdAt.toISOString(),
      by: c.actorName || c.actorEmail || c.actorId,
      area: c.key,
      summary: c.summary,
    })),
  };
}

type StoredSettings = ReturnType<typeof parseStoredSettings>["settings"];

/** What this page has stored, area by area (keys only as set or not, and their last four characters). */
function storedView(s: StoredSettings): Pick<SettingsView, "models" | "providers" | "search" | "runs"> {
  const roleText = (role: Role, m?: Partial<Record<Role, string>>) => m?.[role] ?? "";
  return {
    models: {
      useEnvironment: s.models?.useEnvironment ?? true,
      model: s.models?.model ?? "",
      roles: Object.fromEntries(ROLES.map((r) => [r, roleText(r, s.models?.roles)])) as Record<Role, string>,
    },
    providers: Object.fromEntries(
      modelProviders.map((p) => {
        const stored = s.providers?.[p];
        return [
          p,
          {
            useEnvironment: stored?.useEnvironment ?? true,
            key: keyState(stored?.key),
            baseUrl: stored?.baseUrl ?? "",
            defaultBaseUrl: p === "openai-compatible" ? "" : DEFAULT_BASE_URL[p],
          },
        ];
      }),
    ) as SettingsView["providers"],
    search: {
      useEnvironment: s.search?.useEnvironment ?? true,
      providers: s.search?.providers ?? [],
      keys: Object.fromEntries(
        keyedSearchProviders.map((k) => [k, keyState(s.search?.keys[k])]),
      ) as SettingsView["search"]["keys"],
      searxngUrl: s.search?.searxngUrl ?? "",
    },
    runs: { useEnvironment: s.runs?.useEnvironment ?? true, values: s.runs?.values ?? {} },
  };
}

/** What the environment alone says (keys only as set or not, URLs without credentials). */
function environmentView(base: Env): SettingsView["environment"] {
  return {
    models: {
      model: text(base, "MODEL"),
      roles: Object.fromEntries(ROLES.map((r) => [r, text(base, roleVariable(r))])) as Record<Role, string>,
    },
    providers: Object.fromEntries(
      modelProviders.map((p) => [
        p,
        {
          keySet: Boolean(text(base, providerKeyVariable[p])),
          baseUrl: withoutCredentials(text(base, BASE_URL_VARIABLE[p])),
        },
      ]),
    ) as SettingsView["environment"]["providers"],
    search: {
      providers: text(base, "SEARCH_PROVIDERS") || "library",
      keysSet: Object.fromEntries(
        keyedSearchProviders.map((k) => [k, Boolean(text(base, searchKeyVariable[k]))]),
      ) as Record<KeyedSearchProvider, boolean>,
      searxngUrl: withoutCredentials(text(base, "SEARXNG_URL")),
    },
    runs: Object.fromEntries(runVariableNames.flatMap((n) => (text(base, n) ? [[n, text(base, n)]] : []))),
  };
}

/** The model each role gets now, where it comes from and the chain it falls back along. */
function rolesView(effective: Awaited<ReturnType<typeof effectiveConfig>>): SettingsView["roles"] {
  return modelConfigStatus(effective.env).roles.map((r) => ({
    role: r.role,
    configured: r.configured,
    model: r.model,
    models: r.models,
    skipped: r.skipped,
    problem: r.problem,
    chain: chainVariables(r.role),
    from: effective.modelsStored ? "this page" : r.source ? `environment (${r.source})` : "nowhere",
  }));
}
