// Every schema the app sends to a model (structured outputs by schemaName, tool inputs) is rendered
// as each provider's own AI SDK package sends it — OpenAI's Responses API in strict mode, Anthropic's
// Messages API, Gemini's generateContent — and checked against that provider's documented rules
// (test/support/provider-rules.ts, sources in the table). The list of schemas comes from the source:
// a schemaName or a tool( in lib/ that the registry does not cover fails here.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { asSchema, type FlexibleSchema } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { modelTools, structuredOutputSchemas } from "../lib/research/model-schemas.ts";
import { clarificationSchema } from "../lib/research/phases/brief.ts";
import { type ProviderCapture, startProviderCapture } from "./support/provider-capture.ts";
import { commonSubsetViolations, type SchemaProvider, schemaViolations } from "./support/provider-rules.ts";

const root = path.resolve(import.meta.dirname, "..");
const providers: SchemaProvider[] = ["openai", "anthropic", "google"];

function libSources(): { file: string; text: string }[] {
  const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "lib/*.ts"], {
    cwd: root,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter((f) => f && !f.endsWith(".test.ts") && fs.existsSync(path.join(root, f)))
    .map((file) => ({ file, text: fs.readFileSync(path.join(root, file), "utf8") }));
}

/** The schema names and tool names lib/ sends, read from the source; and what the scan could not read. */
function scanSources() {
  const schemaNames = new Set<string>();
  const toolNames = new Set<string>();
  const unreadable: string[] = [];
  for (const { file, text } of libSources()) {
    text.split("\n").forEach((line, i) => {
      const where = `${file}:${i + 1}`;
      for (const m of line.matchAll(/\bschemaName\b(?::\s*"([^"]+)")?/g)) {
        // structured.ts declares and forwards the option; everywhere else it is a literal name.
        if (m[1]) schemaNames.add(m[1]);
        else if (file !== "lib/ai/structured.ts")
          unreadable.push(`${where}: schemaName without a literal name`);
      }
      for (const m of line.matchAll(/(?:(\w+):\s*)?\btool\(/g)) {
        if (m[1]) toolNames.add(m[1]);
        else unreadable.push(`${where}: tool( without a name`);
      }
    });
  }
  return { schemaNames, toolNames, unreadable };
}

describe("the schemas sent to models", () => {
  it("are all in the registry the rule check reads (found by scanning lib/)", () => {
    const { schemaNames, toolNames, unreadable } = scanSources();
    expect(unreadable).toEqual([]);
    expect(schemaNames.size).toBeGreaterThanOrEqual(7);
    expect([...schemaNames].sort()).toEqual(Object.keys(structuredOutputSchemas).sort());
    expect([...toolNames].sort()).toEqual(Object.keys(modelTools).sort());
  });

  describe("as each provider's package sends them", () => {
    let capture: ProviderCapture;
    beforeAll(async () => {
      capture = await startProviderCapture();
    });
    afterAll(() => capture.close());

    it("break none of the provider's documented rules", async () => {
      const violations: Record<SchemaProvider, string[]> = { openai: [], anthropic: [], google: [] };
      for (const provider of providers) {
        for (const [name, schema] of Object.entries(structuredOutputSchemas)) {
          const sent = await capture.output(provider, schema, name);
          if (sent.strict !== true) violations[provider].push(`${name}: not sent in strict mode`);
          violations[provider].push(...schemaViolations(provider, sent.schema).map((v) => `${name} ${v}`));
        }
        const tools = await capture.tools(provider, modelTools);
        expect(tools.map((t) => t.label).sort()).toEqual(Object.keys(modelTools).sort());
        for (const t of tools) {
          // Gemini has no strict flag: its function declarations are always constrained.
          if (provider !== "google" && t.strict !== true)
            violations[provider].push(`tool ${t.label}: not strict`);
          violations[provider].push(
            ...schemaViolations(provider, t.schema).map((v) => `tool ${t.label} ${v}`),
          );
        }
      }
      const counts = Object.fromEntries(providers.map((p) => [p, violations[p].length]));
      expect({ counts, violations }).toEqual({
        counts: { openai: 0, anthropic: 0, google: 0 },
        violations: { openai: [], anthropic: [], google: [] },
      });
    });

    it("catch a constraint added to a copy of a schema, in every provider's rules", async () => {
      const stricter = clarificationSchema.extend({ question: z.string().min(1) });
      for (const provider of providers) {
        const asOutput = schemaViolations(
          provider,
          (await capture.output(provider, stricter, "copy")).schema,
        );
        const [asTool] = await capture.tools(provider, {
          copy: { description: "a copy", inputSchema: stricter },
        });
        const found = [...asOutput, ...schemaViolations(provider, asTool.schema)];
        expect(found.join("\n"), provider).toContain("minLength is not supported");
      }
    });
  });

  it("stay inside the common subset before any provider touches them (no item counts either)", () => {
    const jsonOf = (schema: unknown) => asSchema(schema as FlexibleSchema<unknown>).jsonSchema;
    const rendered = [
      ...Object.entries(structuredOutputSchemas).map(([name, s]) => [name, jsonOf(s)] as const),
      ...Object.entries(modelTools).map(([name, t]) => [`tool ${name}`, jsonOf(t.inputSchema)] as const),
    ];
    expect(rendered.flatMap(([name, s]) => commonSubsetViolations(s).map((v) => `${name} ${v}`))).toEqual([]);
  });
});
