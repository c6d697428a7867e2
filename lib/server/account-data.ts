/**
 * A person's data (issue 16): "Export my data" as one .tar.gz, and "Delete my account" with
 * everything it owns. Export: per run `runs/<slug>-<id>.md` (the report Markdown, Sources included,
 * as report.md serves it) and `runs/<slug>-<id>.json` (the run, its sources, events and
 * directives), plus `knowledge.json` and `library.json`.
 */
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import {
  deleteAccountRows,
  listAllRunsOfOwner,
  listOwnedDocuments,
  listOwnedKnowledge,
  runRecords,
} from "../../db/queries/account-data.ts";
import { countOtherActiveAdmins, countUsers } from "../../db/queries/accounts.ts";
import { lockOwnerRunSlots } from "../../db/queries/runs.ts";
import { countUnfinishedRuns } from "../../db/queries/user-limits.ts";
import type { Run } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { type ArchiveFile, tarGz } from "./account-data-archive.ts";
import type { Caller } from "./auth/caller.ts";
import type { Runtime } from "./runtime.ts";

/** A file-name-safe, ASCII, short form of the question ("what-is-pglite"). */
export function slugOf(text: string, max = 40): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/, "");
  return slug || "run";
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function runFiles(db: Db, run: Run): Promise<ArchiveFile[]> {
  const base = `runs/${slugOf(run.question)}-${run.id}`;
  const { report, sources, events, directives } = await runRecords(db, run.id);
  // The engine's resumable state and the queue's job id are internals, not the person's data.
  const { checkpoint: _checkpoint, jobId: _jobId, ...shown } = run;
  const files: ArchiveFile[] = [
    { name: `${base}.json`, content: json({ run: shown, sources, events, directives }) },
  ];
  if (report) files.unshift({ name: `${base}.md`, content: report.markdown });
  return files;
}

/** Everything the person owns, as one archive. */
export async function exportAccountData(rt: Runtime, ownerId: string): Promise<Buffer> {
  const db = rt.handle.db;
  const files: ArchiveFile[] = [];
  for (const run of await listAllRunsOfOwner(db, ownerId)) files.push(...(await runFiles(db, run)));
  const [knowledge, documents] = await Promise.all([
    listOwnedKnowledge(db, ownerId),
    listOwnedDocuments(db, ownerId),
  ]);
  files.push({ name: "knowledge.json", content: json(knowledge) });
  // The search column is derived from the text; the rest is the document as stored.
  files.push({ name: "library.json", content: json(documents.map(({ search: _search, ...d }) => d)) });
  return tarGz(files);
}

export function exportFilename(now = new Date()): string {
  return `deep-research-export-${now.toISOString().slice(0, 10)}.tar.gz`;
}

export const deleteAccountSchema = z.strictObject({
  /** The account's email address, typed by the person to confirm. */
  confirmEmail: z.string().trim().min(1, "type your email address to confirm").max(320),
});

/**
 * Deletes the caller's account and everything it owns, in one transaction. Refused (409) while a
 * run is unfinished (its worker could still write to it) and for the last admin while other
 * accounts exist (nobody could manage them afterwards).
 */
export async function deleteAccount(
  rt: Runtime,
  caller: Caller,
  input: z.infer<typeof deleteAccountSchema>,
): Promise<void> {
  if (input.confirmEmail.toLowerCase() !== caller.email.toLowerCase()) {
    throw new AppError(
      "validation_failed",
      "To delete your account, type your email address exactly as it is.",
    );
  }
  await rt.handle.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    // The same lock run creation takes: no run can start between the check and the delete.
    await lockOwnerRunSlots(tx, caller.userId);
    const unfinished = await countUnfinishedRuns(tx, caller.userId);
    if (unfinished > 0) {
      throw new AppError(
        "conflict",
        `You have ${unfinished} run${unfinished === 1 ? "" : "s"} that ${unfinished === 1 ? "has" : "have"} not ended. Cancel ${unfinished === 1 ? "it" : "them"} first, then delete your account.`,
      );
    }
    if (caller.role === "admin" && (await countOtherActiveAdmins(tx, caller.userId)) === 0) {
      if ((await countUsers(tx)) > 1) {
        throw new AppError(
          "conflict",
          "You are the last admin and other accounts exist. Make someone else an admin first, then delete your account.",
        );
      }
    }
    await deleteAccountRows(tx, caller.userId);
  });
}
