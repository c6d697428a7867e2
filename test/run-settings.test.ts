// The API's run settings and the engine's config are one schema: every bound a caller meets at
// POST /api/runs is the engine's own, and a value the engine would refuse is refused with a 4xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { POST } from "../app/api/runs/route.ts";
import {
  researchConfigSchema,
  researchSettingsSchema,
  resolveResearchConfig,
} from "../lib/research/config.ts";
import { createRunSchema, runSettingsSchema } from "../lib/server/runs/input.ts";
import { signUp, useFreshAppDatabase } from "./support/app-session.ts";

const apiFields: Record<string, z.ZodType> = runSettingsSchema.unwrap().shape;
const engineFields = researchConfigSchema.shape;
const API_ONLY = ["models", "budget", "webhookUrl"];
const engineKeys = Object.keys(apiFields).filter(
  (k) => !API_ONLY.includes(k),
) as (keyof typeof engineFields)[];

/** A field's JSON Schema without its default: type, integer-ness, minimum, maximum, enum, minItems. */
function bounds(field: z.ZodType): Record<string, unknown> {
  const {
    default: _d,
    $schema: _s,
    ...rest
  } = z.toJSONSchema(field, { unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

/** Every numeric bound of the engine's config fields the API exposes. */
const numericBounds = engineKeys.flatMap((key) => {
  const b = bounds(engineFields[key]);
  const step = b.type === "integer" ? 1 : 0.01;
  return [
    ...(typeof b.minimum === "number"
      ? [{ key, bound: "minimum", at: b.minimum, past: b.minimum - step }]
      : []),
    ...(typeof b.maximum === "number"
      ? [{ key, bound: "maximum", at: b.maximum, past: b.maximum + step }]
      : []),
  ];
});

// The API is asked as a signed-in person: validation comes after authentication.
let cookie = "";
let stopApp: () => Promise<void>;
beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  cookie = (await signUp("settings@example.org")).cookie;
}, 60_000);
afterAll(async () => stopApp());

async function postRun(settings: Record<string, unknown>) {
  const res = await POST(
    new Request("http://localhost/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ question: "Is a heat pump worth it?", settings }),
    }),
  );
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

describe("run settings bounds come from the engine's config", () => {
  it("exposes engine fields with exactly the engine's bounds", () => {
    expect(engineKeys.length).toBeGreaterThanOrEqual(10);
    for (const key of engineKeys) {
      expect(engineFields[key], `${key} is an engine setting`).toBeDefined();
      expect(bounds(apiFields[key]), key).toEqual(bounds(engineFields[key]));
    }
    // The time limits kept the stricter of the two former copies (10 s … 24 h).
    expect(bounds(apiFields.runTimeoutMs)).toMatchObject({ minimum: 10_000, maximum: 24 * 3600_000 });
    expect(bounds(apiFields.phaseTimeoutMs)).toMatchObject({ minimum: 10_000, maximum: 24 * 3600_000 });
  });

  it("has numeric bounds to check", () => {
    expect(numericBounds.length).toBeGreaterThanOrEqual(12);
  });

  it.each(numericBounds)(
    "$key: $past (past the $bound) is refused by the engine and by the API with 422",
    async ({ key, past }) => {
      expect(() => resolveResearchConfig({ [key]: past })).toThrow();
      const { status, body } = await postRun({ [key]: past });
      expect(status).toBe(422);
      expect(body.error?.code).toBe("validation_failed");
      expect(body.error?.message).toContain(`settings.${key}`);
    },
  );

  it.each(numericBounds)("$key: $at (the $bound itself) is accepted by both", ({ key, at }) => {
    expect(resolveResearchConfig({ [key]: at })[key]).toBe(at);
    expect(createRunSchema.parse({ question: "q??", settings: { [key]: at } }).settings).toEqual({
      [key]: at,
    });
  });

  it("refuses an unknown search provider and a typo'd key in both, and keeps only what was given", async () => {
    expect(() => resolveResearchConfig({ searchProviders: ["bing"] })).toThrow();
    expect((await postRun({ searchProviders: ["bing"] })).status).toBe(422);
    expect(researchSettingsSchema.safeParse({ maxSupervisonRounds: 2 }).success).toBe(false);
    expect((await postRun({ maxSupervisonRounds: 2 })).status).toBe(422);
    // No defaults are filled into the stored settings: the engine applies them when the run starts.
    expect(createRunSchema.parse({ question: "q??", settings: { planReview: true } }).settings).toEqual({
      planReview: true,
    });
    expect(createRunSchema.parse({ question: "q??" }).settings).toEqual({});
  });
});
