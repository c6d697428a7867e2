/**
 * GET /api/runs/:id/bundle: an ended run of the owner's as one JSON file (bundle-schema.ts), written
 * as it is read — sources a few at a time, events a page at a time — so a run of any size needs
 * little memory. Limited like the account export: one at a time per person (a lease, across
 * processes) and RATE_LIMIT_EXPORTS_PER_HOUR. Nothing secret leaves: no owner, no share tokens, no
 * webhook URL (it may carry a receiver's secret).
 */
import { Readable } from "node:stream";
import type { Db } from "../../../db/client.ts";
import {
  getSourcesByIds,
  listRunDirectives,
  listRunEventsAfter,
  listSourceSizes,
} from "../../../db/queries/account-data.ts";
import { getReport, listCitations } from "../../../db/queries/research.ts";
import { getRunForOwner } from "../../../db/queries/runs.ts";
import { type Run, terminalRunStatuses } from "../../../db/schema.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { holdLease } from "../leases.ts";
import { consumeRateLimit } from "../rate-limits.ts";
import type { Runtime } from "../runtime.ts";
import { BUNDLE_FORMAT, BUNDLE_SCHEMA_VERSION, type RunBundle } from "./bundle-schema.ts";
import { fileBaseName } from "./file-name.ts";

const SOURCES_AT_ONCE = 20;
const EVENT_PAGE = 500;
const LEASE_TTL_MS = 60_000;

type BundleRun = RunBundle["run"];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function runPart(run: Run): BundleRun {
  const { webhookUrl: _secret, ...settings } = run.settings as Record<string, unknown>;
  return {
    id: run.id,
    question: run.question,
    status: run.status as BundleRun["status"],
    phase: run.phase,
    settings,
    brief: run.brief,
    clarificationQuestion: run.clarificationQuestion,
    clarificationAnswer: run.clarificationAnswer,
    error: run.error,
    usage: run.usage,
    degradations: run.degradations as unknown as Record<string, unknown>[],
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
  };
}

async function* bundlePieces(db: Db, run: Run, now: Date): AsyncGenerator<string> {
  const [report, citationRows, directiveRows] = await Promise.all([
    getReport(db, run.id),
    listCitations(db, run.id),
    listRunDirectives(db, run.id),
  ]);
  const byModel = (run.usage as { byModel?: Record<string, unknown> }).byModel ?? {};
  const head: Omit<RunBundle, "sources" | "events"> = {
    format: BUNDLE_FORMAT,
    schemaVersion: BUNDLE_SCHEMA_VERSION,
    exportedAt: now.toISOString(),
    run: runPart(run),
    models: Object.keys(byModel),
    report: report
      ? { markdown: report.markdown, partial: report.partial, citationStats: report.citationStats }
      : null,
    claims: citationRows.map((c) => ({
      number: c.number,
      sourceId: c.sourceId,
      sentence: c.sentence,
      support: c.support,
      reason: c.reason,
      passage: c.passage,
    })),
    directives: directiveRows.map((d) => ({
      id: d.id,
      round: d.round,
      topic: d.topic,
      perspective: d.perspective,
      evidenceNeeded: d.evidenceNeeded,
      priority: d.priority,
      origin: d.origin,
      status: d.status,
      type: d.type,
      rationale: d.rationale,
      error: d.error,
    })),
  };
  yield `${JSON.stringify(head).slice(0, -1)},"sources":[`;
  const ids = (await listSourceSizes(db, run.id)).map((s) => s.id);
  for (let i = 0; i < ids.length; i += SOURCES_AT_ONCE) {
    const rows = await getSourcesByIds(db, ids.slice(i, i + SOURCES_AT_ONCE));
    for (const [j, s] of rows.entries()) {
      const source: RunBundle["sources"][number] = {
        id: s.id,
        url: s.url,
        title: s.title,
        domain: s.domain,
        provider: s.provider,
        quality: s.quality,
        snippet: s.snippet,
        content: s.content,
        fetchedAt: iso(s.fetchedAt),
      };
      yield `${i + j ? "," : ""}${JSON.stringify(source)}`;
    }
  }
  yield `],"events":[`;
  for (let after = 0, first = true; ; ) {
    const page = await listRunEventsAfter(db, run.id, after, EVENT_PAGE);
    for (const e of page) {
      yield `${first ? "" : ","}${JSON.stringify({ seq: e.seq, type: e.type, payload: e.payload, createdAt: e.createdAt.toISOString() })}`;
      first = false;
    }
    if (page.length < EVENT_PAGE) break;
    after = page[page.length - 1].seq;
  }
  yield "]}\n";
}

async function* encoded(pieces: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const piece of pieces) yield Buffer.from(piece, "utf8");
}

export function bundleFilename(question: string): string {
  return `${fileBaseName(question)}.run-bundle.json`;
}

/**
 * The owner's ended run as a bundle stream. 404 for another person's run, 409 while it runs
 * (a bundle is a finished record), 429 while another of their exports is written or past the limit.
 */
export async function openRunBundle(
  rt: Runtime,
  runId: string,
  ownerId: string,
  env: Env = process.env,
  now = new Date(),
): Promise<{ stream: ReadableStream<Uint8Array>; filename: string }> {
  const db = rt.handle.db;
  const run = await getRunForOwner(db, runId, ownerId);
  if (!run) throw new AppError("not_found", "No such run.");
  if (!terminalRunStatuses.includes(run.status)) {
    throw new AppError(
      "conflict",
      `The run has not ended yet (${run.status}): a bundle is the record of an ended run.`,
    );
  }
  const lease = await holdLease(db, `export:${ownerId}`, LEASE_TTL_MS);
  if (!lease) {
    throw new AppError(
      "rate_limited",
      "An export of yours is already being written, and only one runs at a time. Wait for its download to finish, then try again.",
      { headers: { "retry-after": "30" }, details: { limit: "exports", concurrent: 1 } },
    );
  }
  try {
    await consumeRateLimit(rt.handle, "exports", `user:${ownerId}`, env);
  } catch (e) {
    await lease.release();
    throw e;
  }
  const body = Readable.from(encoded(bundlePieces(db, run, now)));
  body.once("close", () => void lease.release());
  return {
    stream: Readable.toWeb(body) as ReadableStream<Uint8Array>,
    filename: bundleFilename(run.question),
  };
}
