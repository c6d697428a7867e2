/**
 * The JSON Schemas a provider's own AI SDK package puts on the wire for a structured output and for
 * tools: the call goes to a local server on 127.0.0.1 that records the request body and answers 400,
 * and the schema is read out of the body where that provider's API carries it. Test-only.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type LanguageModel, type ToolSet } from "ai";
import type { z } from "zod";
import { outputFor } from "../../lib/ai/structured.ts";
import { type FakeServer, startFakeServer } from "./fake-http.ts";
import type { SchemaProvider } from "./provider-rules.ts";

/** A schema as sent: where it came from, the JSON Schema, and whether the request asked for strict decoding. */
export interface SentSchema {
  label: string;
  schema: unknown;
  strict: boolean | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON
type Body = any;

/** Where each API carries the structured output's schema and the tools' input schemas. */
const readers: Record<
  SchemaProvider,
  { output(body: Body): SentSchema; tools(body: Body): SentSchema[]; path: RegExp }
> = {
  // Responses API: text.format {type: json_schema, strict, schema}; tools [{type: function, parameters, strict}].
  openai: {
    path: /\/responses$/,
    output: (b) => ({
      label: b.text?.format?.name,
      schema: b.text?.format?.schema,
      strict: b.text?.format?.strict,
    }),
    tools: (b) =>
      (b.tools ?? []).map((t: Body) => ({ label: t.name, schema: t.parameters, strict: t.strict })),
  },
  // Messages API: output_config.format {type: json_schema, schema}; tools [{name, input_schema, strict}].
  anthropic: {
    path: /\/messages$/,
    output: (b) => ({ label: "output_config.format", schema: b.output_config?.format?.schema, strict: true }),
    tools: (b) =>
      (b.tools ?? []).map((t: Body) => ({ label: t.name, schema: t.input_schema, strict: t.strict })),
  },
  // generateContent: generationConfig.responseJsonSchema; tools [{functionDeclarations: [{parametersJsonSchema}]}].
  google: {
    path: /:generateContent$/,
    output: (b) => ({
      label: "responseJsonSchema",
      schema: b.generationConfig?.responseJsonSchema,
      strict: true,
    }),
    tools: (b) =>
      (b.tools ?? [])
        .flatMap((t: Body) => t.functionDeclarations ?? [])
        .map((f: Body) => ({ label: f.name, schema: f.parametersJsonSchema, strict: undefined })),
  },
};

/** Model ids each package knows to support native structured outputs and strict tools. */
const modelIds: Record<SchemaProvider, string> = {
  openai: "gpt-5.1",
  anthropic: "claude-sonnet-4-5",
  google: "gemini-2.5-flash",
};

export interface ProviderCapture {
  /** The structured output's schema as `provider` sends it. */
  output(provider: SchemaProvider, schema: z.ZodType, name: string): Promise<SentSchema>;
  /** Each tool's input schema as `provider` sends it. */
  tools(provider: SchemaProvider, tools: ToolSet): Promise<SentSchema[]>;
  close(): Promise<void>;
}

export async function startProviderCapture(): Promise<ProviderCapture> {
  const server: FakeServer = await startFakeServer(() => ({
    status: 400,
    json: { error: { message: "captured", type: "invalid_request_error" } },
  }));
  const models: Record<SchemaProvider, LanguageModel> = {
    openai: createOpenAI({ apiKey: "test", baseURL: `${server.url}/v1` }).languageModel(modelIds.openai),
    anthropic: createAnthropic({ apiKey: "test", baseURL: `${server.url}/v1` }).languageModel(
      modelIds.anthropic,
    ),
    google: createGoogle({ apiKey: "test", baseURL: `${server.url}/v1beta` }).languageModel(modelIds.google),
  };
  const send = async (provider: SchemaProvider, args: Partial<Parameters<typeof generateText>[0]>) => {
    const before = server.requests.length;
    await generateText({
      model: models[provider],
      prompt: "capture",
      maxRetries: 0,
      ...args,
    } as Parameters<typeof generateText>[0]).catch(() => undefined);
    const request = server.requests[before];
    if (!request || !readers[provider].path.test(request.path)) {
      throw new Error(`${provider}: no request captured (got ${request?.path ?? "none"})`);
    }
    return request.json();
  };
  return {
    async output(provider, schema, name) {
      const body = await send(provider, { output: outputFor(schema, name) });
      const sent = readers[provider].output(body);
      if (sent.schema === undefined)
        throw new Error(`${provider}: the request carried no schema for ${name}`);
      return { ...sent, label: name };
    },
    async tools(provider, tools) {
      return readers[provider].tools(await send(provider, { tools }));
    },
    close: () => server.close(),
  };
}
