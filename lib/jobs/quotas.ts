/**
 * Per-person storage quotas: the text of their library documents (QUOTA_LIBRARY_MB) and the page
 * text their runs keep as sources (QUOTA_SOURCE_TEXT_MB). 0 turns a quota off.
 *
 * - A library document that would take the library past its quota is refused (413 quota_exceeded).
 * - A run is refused at creation while the stored source text is at or over its quota (413).
 * - A run that reaches the quota while it researches stops storing page text: the write that would
 *   pass the quota ends the run `failed`, with the reason naming the limit and its variable, and
 *   with a partial report of what it had gathered (like an exhausted budget).
 * Refusals name the quota, its variable and what is used, and say how to make room.
 */
import type { Db } from "../../db/client.ts";
import { libraryBytesOf, sourceTextBytesOf } from "../../db/queries/quotas.ts";
import { type Env, envNumber } from "../env.ts";
import { AppError } from "../errors.ts";
import type { RunStore } from "../research/index.ts";

export type QuotaName = "library" | "sourceText";

const quotaVariables: Record<
  QuotaName,
  { variable: string; fallbackMb: number; what: string; free: string }
> = {
  library: {
    variable: "QUOTA_LIBRARY_MB",
    fallbackMb: 200,
    what: "Your library's text",
    free: "Delete documents you no longer need, or ask the operator to raise the limit.",
  },
  sourceText: {
    variable: "QUOTA_SOURCE_TEXT_MB",
    fallbackMb: 1000,
    what: "The page text your runs keep as sources",
    free: "Delete runs you no longer need, or ask the operator to raise the limit.",
  },
};

const MB = 1024 * 1024;

/** Each quota in bytes; 0 = no quota. */
export function quotasFromEnv(env: Env = process.env): Record<QuotaName, number> {
  const bytes = (name: QuotaName) =>
    Math.round(
      envNumber(env, quotaVariables[name].variable, quotaVariables[name].fallbackMb, { min: 0 }) * MB,
    );
  return { library: bytes("library"), sourceText: bytes("sourceText") };
}

const inMb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;

/** Bytes in words: "12 KB", "3.4 MB", "1000 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < MB) return `${Math.ceil(bytes / 1024)} KB`;
  const mb = bytes / MB;
  return `${mb >= 10 || Number.isInteger(mb) ? Math.round(mb) : mb.toFixed(1)} MB`;
}

/** 413 quota_exceeded: what is used, the limit, its variable, and how to make room. */
export function quotaError(name: QuotaName, usedBytes: number, limitBytes: number, adding = 0): AppError {
  const q = quotaVariables[name];
  const limit = `its limit of ${formatBytes(limitBytes)} (${q.variable})`;
  const message =
    adding > 0
      ? `${q.what} would pass ${limit}: ${formatBytes(usedBytes)} is stored and this adds ${formatBytes(adding)}.`
      : `${q.what} has reached ${limit}: ${formatBytes(usedBytes)} is stored.`;
  return new AppError("quota_exceeded", `${message} ${q.free}`, {
    details: {
      quota: name,
      variable: q.variable,
      usedBytes,
      limitBytes,
      addingBytes: adding,
      // The same in MB (two decimals), as the translated messages say them.
      usedMb: inMb(usedBytes),
      limitMb: inMb(limitBytes),
      ...(adding > 0 ? { addingMb: inMb(adding) } : {}),
    },
  });
}

export interface QuotaUse {
  usedBytes: number;
  /** 0: no quota. */
  limitBytes: number;
  variable: string;
}

/** What the person stores against each quota (the account page, GET /api/account/usage). */
export async function storageUse(
  db: Db,
  ownerId: string,
  env: Env = process.env,
): Promise<Record<QuotaName, QuotaUse>> {
  const limits = quotasFromEnv(env);
  const [library, sourceText] = await Promise.all([
    libraryBytesOf(db, ownerId),
    sourceTextBytesOf(db, ownerId),
  ]);
  return {
    library: { usedBytes: library, limitBytes: limits.library, variable: quotaVariables.library.variable },
    sourceText: {
      usedBytes: sourceText,
      limitBytes: limits.sourceText,
      variable: quotaVariables.sourceText.variable,
    },
  };
}

/**
 * Refuses a library document of `addingBytes` that would take the owner's library past its quota;
 * without `addingBytes` (before a document is read), refuses when the library is already full.
 */
export async function assertLibraryRoom(
  db: Db,
  ownerId: string,
  addingBytes?: number,
  env: Env = process.env,
): Promise<void> {
  const limit = quotasFromEnv(env).library;
  if (!limit) return;
  const used = await libraryBytesOf(db, ownerId);
  if (addingBytes === undefined ? used >= limit : used + addingBytes > limit) {
    throw quotaError("library", used, limit, addingBytes);
  }
}

/** Refuses a new run while the owner's stored source text is at or over its quota. */
export async function assertSourceTextRoom(db: Db, ownerId: string, env: Env = process.env) {
  const limit = quotasFromEnv(env).sourceText;
  if (!limit) return;
  const used = await sourceTextBytesOf(db, ownerId);
  if (used >= limit) throw quotaError("sourceText", used, limit);
}

const textBytes = (text: string | null | undefined) => (text ? Buffer.byteLength(text, "utf8") : 0);

/**
 * The run's store with the source-text quota checked before every write that stores page text. The
 * owner's total is read from the database at the first write and again after `recheckMs` (their
 * other runs store text too); in between, this run's own writes are added to it. A write that would
 * pass the quota throws quota_exceeded, which ends the run (lib/research/errors.ts).
 */
export function withSourceTextQuota(
  store: RunStore,
  o: { db: Db; ownerId: string; limitBytes: number; recheckMs?: number },
): RunStore {
  if (!o.limitBytes) return store;
  const recheckMs = o.recheckMs ?? 10_000;
  let stored = 0;
  let readAt = Number.NEGATIVE_INFINITY;
  const room = async (bytes: number) => {
    if (bytes === 0) return;
    if (Date.now() - readAt > recheckMs) {
      stored = await sourceTextBytesOf(o.db, o.ownerId);
      readAt = Date.now();
    }
    if (stored + bytes > o.limitBytes) throw quotaError("sourceText", stored, o.limitBytes, bytes);
    stored += bytes;
  };
  return {
    ...store,
    async addSource(directiveId, input) {
      await room(textBytes(input.content));
      return store.addSource(directiveId, input);
    },
    async addSources(directiveId, inputs) {
      await room(inputs.reduce((n, i) => n + textBytes(i.content), 0));
      return store.addSources(directiveId, inputs);
    },
    async updateSourceContent(sourceId, content, title, quality) {
      await room(textBytes(content));
      return store.updateSourceContent(sourceId, content, title, quality);
    },
  };
}
