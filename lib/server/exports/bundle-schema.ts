/**
 * The run bundle (GET /api/runs/:id/bundle, POST /api/runs/import): one JSON file with a run's
 * report, its claims with their verdicts and passages, its sources with their stored text, its
 * settings, the models it used, its directives and its event log. An imported bundle is untrusted
 * input: every object is strict (a key this version does not know — an owner id, a share token —
 * refuses the whole bundle), every text and list has a ceiling, and the version must be this one.
 *
 * @internal to lib/server/exports/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import { directivePriorities, qualityTiers, runPhases, terminalRunStatuses } from "../../../db/schema.ts";
import { citationSupports, directiveOrigins, directiveStatuses, directiveTypes } from "../../research/ui.ts";

export const BUNDLE_FORMAT = "deep-research/run-bundle";
export const BUNDLE_SCHEMA_VERSION = 1;

const KB = 1024;
const text = (max: number) => z.string().max(max);
const id = z.uuid();
const when = z.iso.datetime({ offset: true });
/** A JSON object of at most `maxBytes` once written (settings, usage, an event's payload). */
const smallObject = (maxBytes: number) =>
  z
    .record(z.string(), z.unknown())
    .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= maxBytes, `larger than ${maxBytes / KB} KB`);

const bundleRun = z.strictObject({
  id,
  question: text(4000),
  status: z.enum(terminalRunStatuses),
  phase: z.enum(runPhases).nullable(),
  settings: smallObject(16 * KB),
  brief: text(100 * KB).nullable(),
  clarificationQuestion: text(4000).nullable(),
  clarificationAnswer: text(4000).nullable(),
  error: text(4000).nullable(),
  usage: smallObject(64 * KB),
  degradations: z.array(smallObject(8 * KB)).max(200),
  createdAt: when,
  startedAt: when.nullable(),
  finishedAt: when.nullable(),
});

const bundleReport = z.strictObject({
  markdown: text(1024 * KB),
  partial: z.boolean(),
  citationStats: smallObject(16 * KB),
});

const bundleClaim = z.strictObject({
  number: z.int().min(1).max(10_000),
  sourceId: id,
  sentence: text(8 * KB),
  support: z.enum(citationSupports),
  reason: text(8 * KB).nullable(),
  passage: text(32 * KB).nullable(),
});

const bundleDirective = z.strictObject({
  id,
  round: z.int().min(0).max(100),
  topic: text(8 * KB).min(1),
  perspective: text(4 * KB).nullable(),
  evidenceNeeded: text(4 * KB).nullable(),
  priority: z.enum(directivePriorities),
  origin: z.enum(directiveOrigins),
  status: z.enum(directiveStatuses),
  type: z.enum(directiveTypes),
  rationale: text(4 * KB).nullable(),
  error: text(4 * KB).nullable(),
});

const bundleSource = z.strictObject({
  id,
  url: text(4 * KB).min(1),
  title: text(2 * KB),
  domain: text(512),
  provider: text(64),
  quality: z.enum(qualityTiers),
  snippet: text(16 * KB).nullable(),
  /** The stored text the claims were checked against. */
  content: text(4 * 1024 * KB).nullable(),
  fetchedAt: when.nullable(),
});

const bundleEvent = z.strictObject({
  seq: z.int().min(1),
  type: z
    .string()
    .regex(/^[a-z_]+\.[a-z_]+$/)
    .max(64),
  payload: smallObject(64 * KB),
  createdAt: when,
});

export const runBundleSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  schemaVersion: z.literal(BUNDLE_SCHEMA_VERSION),
  exportedAt: when,
  run: bundleRun,
  /** The models the run called (provider:model), from its usage. */
  models: z.array(text(200)).max(50),
  report: bundleReport.nullable(),
  claims: z.array(bundleClaim).max(10_000),
  directives: z.array(bundleDirective).max(500),
  sources: z.array(bundleSource).max(2_000),
  events: z.array(bundleEvent).max(20_000),
});

export type RunBundle = z.infer<typeof runBundleSchema>;
