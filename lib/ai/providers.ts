import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { ModelConfigError } from "./errors.ts";
import type { BuiltinProvider } from "./spec.ts";

export type Env = Record<string, string | undefined>;

/** A model instance (never a gateway id string: we always build models explicitly). */
export type LanguageModelInstance = Exclude<LanguageModel, string>;

/** Builds the model for a model id. Tests and custom setups pass their own per provider name. */
export type ProviderFactory = (modelId: string) => LanguageModelInstance;
export type ProviderFactories = Record<string, ProviderFactory>;

export function envValue(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

type KeyedProvider = Exclude<BuiltinProvider, "openai-compatible">;

const KEY_VARIABLE: Record<KeyedProvider, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
};

/** Where each provider's API is addressed; a proxy or gateway goes here. */
export const BASE_URL_VARIABLE: Record<BuiltinProvider, string> = {
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
  google: "GOOGLE_GENERATIVE_AI_BASE_URL",
  "openai-compatible": "OPENAI_COMPATIBLE_BASE_URL",
};

/** The providers' own APIs, used when no base URL is set. */
export const DEFAULT_BASE_URL: Record<KeyedProvider, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
};

const isHttpUrl = (url: string) => /^https?:\/\//i.test(url) && URL.canParse(url);

/**
 * The base URL a provider is called at: its variable, else (built-in providers) the official API.
 * Always passed to the SDK explicitly, so the SDKs' own process.env lookups never decide.
 */
export function providerBaseUrl(provider: BuiltinProvider, env: Env): string | undefined {
  const set = envValue(env, BASE_URL_VARIABLE[provider])?.replace(/\/+$/, "");
  return set ?? (provider === "openai-compatible" ? undefined : DEFAULT_BASE_URL[provider]);
}

/**
 * What is missing for a built-in provider to work, as a sentence naming the variable, or
 * undefined when it is usable. Checked up front so a run fails at creation, not mid-research.
 */
export function missingProviderConfig(provider: BuiltinProvider, env: Env): string | undefined {
  if (provider === "openai-compatible") {
    const url = envValue(env, "OPENAI_COMPATIBLE_BASE_URL");
    if (!url) {
      return "set OPENAI_COMPATIBLE_BASE_URL to the server's OpenAI-compatible base URL (Ollama: http://localhost:11434/v1)";
    }
    if (!isHttpUrl(url)) {
      return `OPENAI_COMPATIBLE_BASE_URL=${JSON.stringify(url)} is not an http(s) URL (Ollama: http://localhost:11434/v1)`;
    }
    return undefined;
  }
  const variable = KEY_VARIABLE[provider];
  if (!envValue(env, variable)) return `set ${variable} to use ${provider}: models`;
  const base = BASE_URL_VARIABLE[provider];
  const url = envValue(env, base);
  if (url !== undefined && !isHttpUrl(url)) {
    return `${base}=${JSON.stringify(url)} is not an http(s) URL (unset it for ${DEFAULT_BASE_URL[provider]})`;
  }
  return undefined;
}

/**
 * A factory for a built-in provider. Keys and base URLs come from the passed env object (the
 * effective configuration, settings over the environment), never from the SDKs' own process.env
 * lookups, so configuration has one source of truth and tests stay hermetic.
 */
export function builtinProviderFactory(provider: BuiltinProvider, env: Env): ProviderFactory {
  const missing = missingProviderConfig(provider, env);
  if (missing) throw new ModelConfigError(`Cannot use ${provider}: ${missing}.`);
  switch (provider) {
    case "openai": {
      const p = createOpenAI({
        apiKey: envValue(env, "OPENAI_API_KEY"),
        baseURL: providerBaseUrl(provider, env),
      });
      return (id) => p.languageModel(id);
    }
    case "anthropic": {
      const p = createAnthropic({
        apiKey: envValue(env, "ANTHROPIC_API_KEY"),
        baseURL: providerBaseUrl(provider, env),
      });
      return (id) => p.languageModel(id);
    }
    case "google": {
      const p = createGoogle({
        apiKey: envValue(env, "GOOGLE_GENERATIVE_AI_API_KEY"),
        baseURL: providerBaseUrl(provider, env),
      });
      return (id) => p.languageModel(id);
    }
    case "openai-compatible": {
      const p = createOpenAICompatible({
        name: "openai-compatible",
        baseURL: providerBaseUrl(provider, env)!,
        // Local servers usually need no key; sending none avoids a bogus Authorization header.
        apiKey: envValue(env, "OPENAI_COMPATIBLE_API_KEY"),
        // Ollama, vLLM and LM Studio accept json_schema response formats; usage in streams is
        // needed for token accounting.
        supportsStructuredOutputs: true,
        includeUsage: true,
      });
      return (id) => p.chatModel(id);
    }
  }
}
