/**
 * A new version of a report has finished: when it differs from the version before it (a claim
 * added, removed or changed, or a cited source's text changed — lib/research's versionsDiffer), its
 * owner gets an in-app notice and, when the run has a webhook URL, a `run.version_ready` delivery
 * carrying the diff's counts. Called inside the transaction that ends the run (execute-run.ts), in
 * a savepoint: a notice that cannot be written is logged, and the run still ends.
 */
import type { PgBoss } from "pg-boss";
import type { Db } from "../../../db/client.ts";
import { insertNotification } from "../../../db/queries/notifications.ts";
import { getReport } from "../../../db/queries/research.ts";
import { listCitedSources, listVersions } from "../../../db/queries/run-versions.ts";
import { getRun } from "../../../db/queries/runs.ts";
import { insertWebhookDelivery } from "../../../db/queries/webhooks.ts";
import { diffReports, type ReportVersion, type VersionDiff, versionsDiffer } from "../../research/index.ts";
import { log } from "../../telemetry/log.ts";
import { runWebhookUrl } from "../webhooks/owed.ts";
import { enqueueWebhookDelivery } from "../webhooks/queue.ts";

export const VERSION_READY_EVENT = "run.version_ready";

/** The diff's size, as the notice and the webhook carry it. */
export interface DiffCounts {
  claims: { added: number; removed: number; changed: number };
  sources: { added: number; removed: number; changed: number };
}

export function diffCounts(diff: VersionDiff): DiffCounts {
  const { claims, sources } = diff;
  return {
    claims: { added: claims.added.length, removed: claims.removed.length, changed: claims.changed.length },
    sources: {
      added: sources.added.length,
      removed: sources.removed.length,
      changed: sources.changed.length,
    },
  };
}

async function reportVersion(db: Db, runId: string): Promise<ReportVersion | null> {
  const report = await getReport(db, runId);
  if (!report) return null;
  return { markdown: report.markdown, sources: await listCitedSources(db, runId) };
}

/** The latest earlier version of the report that has a report, to compare the new one with. */
async function previousVersion(db: Db, reportId: string, ownerId: string, runId: string) {
  const versions = await listVersions(db, reportId, ownerId);
  const at = versions.findIndex((v) => v.id === runId);
  for (let i = at - 1; i >= 0; i--) {
    const version = await reportVersion(db, versions[i].id);
    if (version) return { id: versions[i].id, version };
  }
  return null;
}

/** Notifies the owner when `runId` (just completed) is a version that differs from the one before. */
export async function noteVersionReady(tx: Db, boss: PgBoss, runId: string): Promise<boolean> {
  try {
    // In a savepoint: the run ends whatever happens here.
    return await tx.transaction((sp) => writeVersionNotice(sp as unknown as Db, boss, runId));
  } catch (e) {
    log("worker").error({ err: e, runId }, "the new version's notice could not be written");
    return false;
  }
}

async function writeVersionNotice(tx: Db, boss: PgBoss, runId: string): Promise<boolean> {
  const run = await getRun(tx, runId);
  if (!run?.versionOf || run.status !== "completed") return false;
  const after = await reportVersion(tx, runId);
  const before = await previousVersion(tx, run.versionOf, run.ownerId, runId);
  if (!after || !before) return false;
  const diff = diffReports(before.version, after);
  if (!versionsDiffer(diff)) return false;
  const detail = { reportId: run.versionOf, previousRunId: before.id, diff: diffCounts(diff) };
  await insertNotification(tx, { ownerId: run.ownerId, kind: "version_ready", runId, data: detail });
  const url = runWebhookUrl(run.settings);
  if (!url) return true;
  const owed = { runId, ownerId: run.ownerId, url, event: VERSION_READY_EVENT, detail };
  const delivery = await insertWebhookDelivery(tx, owed);
  if (delivery) await enqueueWebhookDelivery(boss, tx, delivery.id);
  return true;
}
