/**
 * POST /api/runs/import: a run bundle from another instance (or this one) opened as a read-only run
 * of the importer. The bundle is untrusted input: read within BUNDLE_IMPORT_MAX_MB, checked against
 * its schema version and bundle-schema.ts (strict: an unknown key such as an owner id refuses it),
 * its references checked (each claim's source is in the bundle), and within the importer's
 * source-text quota. Everything gets a new id; the run belongs to the importer; no share, token or
 * webhook is taken over; nothing is fetched. The run is stored ended, so no worker ever runs it,
 * and marked imported, so its verdicts are shown as recorded by the original instance.
 */
import { randomUUID } from "node:crypto";
import { normalizeTopic } from "../../../db/queries/directives.ts";
import { sourceTextBytesOf } from "../../../db/queries/quotas.ts";
import { insertImportedRun } from "../../../db/queries/run-bundles.ts";
import { type Env, envNumber } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { parseJsonBytes, readBodyBytes, validated } from "../../http.ts";
import { quotaError, quotasFromEnv } from "../../jobs/quotas.ts";
import { normalizeUrl } from "../../search/url.ts";
import { consumeRateLimit } from "../rate-limits.ts";
import type { Runtime } from "../runtime.ts";
import { BUNDLE_FORMAT, BUNDLE_SCHEMA_VERSION, type RunBundle, runBundleSchema } from "./bundle-schema.ts";

const MB = 1024 * 1024;

/** BUNDLE_IMPORT_MAX_MB: the largest bundle accepted (default 10, the proxy's body limit). */
export function bundleImportLimitBytes(env: Env = process.env): number {
  return Math.round(envNumber(env, "BUNDLE_IMPORT_MAX_MB", 10, { min: 0.01 }) * MB);
}

/** The request's body as JSON, refused (413) past the size limit before it is all read. */
export async function readBundleBody(req: Request, env: Env = process.env): Promise<unknown> {
  const max = bundleImportLimitBytes(env);
  const bytes = await readBodyBytes(
    req,
    max,
    () =>
      new AppError(
        "payload_too_large",
        `The bundle exceeds the ${max / MB} MB limit (BUNDLE_IMPORT_MAX_MB).`,
      ),
  );
  return parseJsonBytes(bytes);
}

/** A clear refusal of another format or version before the field-by-field check. */
function checkVersion(raw: unknown): void {
  const head = (raw ?? {}) as { format?: unknown; schemaVersion?: unknown };
  if (head.format !== BUNDLE_FORMAT) {
    throw new AppError("validation_failed", `Not a run bundle: format must be "${BUNDLE_FORMAT}".`);
  }
  if (head.schemaVersion !== BUNDLE_SCHEMA_VERSION) {
    throw new AppError(
      "validation_failed",
      `The bundle's schema version ${JSON.stringify(head.schemaVersion)} is not one this instance reads (${BUNDLE_SCHEMA_VERSION}).`,
      { details: { schemaVersion: head.schemaVersion, supported: [BUNDLE_SCHEMA_VERSION] } },
    );
  }
}

function refuse(message: string): never {
  throw new AppError("validation_failed", `Invalid bundle: ${message}`);
}

/** What the schema cannot say: unique ids, URLs and topics, claims pointing into the bundle, event order. */
function checkReferences(b: RunBundle): void {
  const unique = <T>(values: T[], what: string) => {
    if (new Set(values).size !== values.length) refuse(`${what} repeat.`);
  };
  unique(
    b.sources.map((s) => s.id),
    "source ids",
  );
  unique(
    b.sources.map((s) => normalizeUrl(s.url)),
    "source URLs",
  );
  unique(
    b.directives.map((d) => d.id),
    "directive ids",
  );
  unique(
    b.directives.map((d) => normalizeTopic(d.topic)),
    "directive topics",
  );
  const sourceIds = new Set(b.sources.map((s) => s.id));
  for (const [i, c] of b.claims.entries()) {
    if (!sourceIds.has(c.sourceId)) refuse(`claims.${i}.sourceId names no source of the bundle.`);
  }
  for (let i = 1; i < b.events.length; i++) {
    if (b.events[i].seq <= b.events[i - 1].seq) refuse(`events.${i}.seq is not after the one before.`);
  }
}

/** Every string of a value that is an old id, replaced by its new one (the event log's references). */
function remapIds(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === "string") return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => remapIds(v, ids));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, remapIds(v, ids)]));
  }
  return value;
}

const date = (s: string | null) => (s ? new Date(s) : null);

/** Opens a bundle as a new read-only run of `ownerId` → its id. */
export async function importRunBundle(
  rt: Runtime,
  ownerId: string,
  raw: unknown,
  env: Env = process.env,
  now = new Date(),
): Promise<{ id: string }> {
  const db = rt.handle.db;
  checkVersion(raw);
  const b = validated(runBundleSchema, raw);
  checkReferences(b);
  // Counted once the bundle could be opened: a malformed one is told so, not throttled.
  await consumeRateLimit(rt.handle, "uploads", `user:${ownerId}`, env);

  const limit = quotasFromEnv(env).sourceText;
  const adding = b.sources.reduce((n, s) => n + Buffer.byteLength(s.content ?? ""), 0);
  if (limit) {
    const used = await sourceTextBytesOf(db, ownerId);
    if (used + adding > limit) throw quotaError("sourceText", used, limit, adding);
  }

  const ids = new Map<string, string>();
  const fresh = (old: string) => {
    const id = randomUUID();
    ids.set(old, id);
    return id;
  };
  const runId = fresh(b.run.id);
  for (const s of b.sources) fresh(s.id);
  for (const d of b.directives) fresh(d.id);
  const newId = (old: string) => ids.get(old) as string;
  const { webhookUrl: _secret, ...settings } = b.run.settings;

  await insertImportedRun(db, {
    run: {
      id: runId,
      ownerId,
      question: b.run.question,
      settings,
      status: b.run.status,
      phase: b.run.phase,
      brief: b.run.brief,
      clarificationQuestion: b.run.clarificationQuestion,
      clarificationAnswer: b.run.clarificationAnswer,
      error: b.run.error,
      usage: b.run.usage,
      degradations: b.run.degradations as never,
      lastEventSeq: b.events.length,
      createdAt: new Date(b.run.createdAt),
      startedAt: date(b.run.startedAt),
      finishedAt: date(b.run.finishedAt) ?? now,
      importedFrom: {
        originalId: b.run.id,
        exportedAt: b.exportedAt,
        schemaVersion: b.schemaVersion,
        importedAt: now.toISOString(),
      },
    },
    sources: b.sources.map((s) => ({
      id: newId(s.id),
      runId,
      url: s.url,
      normalizedUrl: normalizeUrl(s.url),
      title: s.title,
      domain: s.domain,
      provider: s.provider,
      quality: s.quality,
      snippet: s.snippet,
      content: s.content,
      fetchedAt: date(s.fetchedAt),
    })),
    directives: b.directives.map((d, ordinal) => ({
      ...d,
      id: newId(d.id),
      runId,
      ordinal,
      normalizedTopic: normalizeTopic(d.topic),
    })),
    report: b.report,
    citations: b.claims.map((c) => ({ ...c, runId, sourceId: newId(c.sourceId) })),
    // Renumbered from 1 without gaps, as every run's event log is.
    events: b.events.map((e, i) => ({
      runId,
      seq: i + 1,
      type: e.type,
      payload: remapIds(e.payload, ids) as Record<string, unknown>,
      createdAt: new Date(e.createdAt),
    })),
  });
  return { id: runId };
}
