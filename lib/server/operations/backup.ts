/**
 * The running app's side of `npm run backup` for the embedded database: only the process that has
 * PGlite open can snapshot it consistently. A backup holds everyone's data, so it is not something
 * an API token can fetch: an admin's signed-in session (from our own pages) or the backup-only
 * secret BACKUP_SECRET asks for it, and each one is written to the audit log (who, when, size).
 */
import { snapshotEmbedded } from "../../../db/backup.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { secretsEqual } from "../../secrets.ts";
import { bearerToken, requireAdmin } from "../auth/caller.ts";
import { clientAddress } from "../client-address.ts";
import { tokenPrefix } from "../tokens/create.ts";
import { recordAudit } from "./audit.ts";

export async function embeddedSnapshot(rt: Runtime): Promise<Uint8Array> {
  if (rt.handle.kind !== "pglite") {
    throw new AppError(
      "conflict",
      "This app runs on PostgreSQL: back it up with `npm run backup` and DATABASE_URL set (it uses pg_dump).",
    );
  }
  return snapshotEmbedded(rt.handle.client);
}

export function backupFileName(now = new Date()): string {
  return `deep-research-${now.toISOString().replace(/[:.]/g, "-")}.tar.gz`;
}

/** BACKUP_SECRET's smallest length: it opens a copy of every account's data. */
export const BACKUP_SECRET_MIN_LENGTH = 32;

/**
 * BACKUP_SECRET, or undefined when unset. A personal API token or a short value is refused with the
 * fix: the secret is the server's own, shared only with whoever runs `npm run backup`.
 */
export function backupSecretFromEnv(env: Env = process.env): string | undefined {
  const secret = env.BACKUP_SECRET?.trim();
  if (!secret) return undefined;
  if (secret.startsWith(tokenPrefix) || secret.length < BACKUP_SECRET_MIN_LENGTH) {
    throw new AppError(
      "not_configured",
      `BACKUP_SECRET must be a random secret of its own (at least ${BACKUP_SECRET_MIN_LENGTH} characters, not an API token): generate one with \`openssl rand -base64 32\` and set it for the app and for \`npm run backup\`.`,
    );
  }
  return secret;
}

/** Who asked for a backup, as the audit log records it. */
export interface BackupActor {
  actorId: string | null;
  actorEmail: string | null;
}

/** BACKUP_SECRET as the bearer, else an admin's session from our own pages; a token gets 403. */
export async function authorizeBackup(req: Request, env: Env = process.env): Promise<BackupActor> {
  const bearer = bearerToken(req.headers);
  if (bearer) {
    const secret = backupSecretFromEnv(env);
    if (secret && secretsEqual(bearer, secret)) return { actorId: null, actorEmail: null };
  }
  const admin = await requireAdmin(req, "session", { sameOrigin: true });
  return { actorId: admin.userId, actorEmail: admin.email };
}

export async function recordBackup(
  rt: Runtime,
  actor: BackupActor,
  bytes: number,
  ipAddress: string | null,
): Promise<void> {
  await recordAudit(rt, { action: "backup", ...actor, bytes, ipAddress });
}

/**
 * GET /api/admin/backup as one action: who asks is checked before the runtime is opened, then the
 * snapshot is taken and written to the audit log with its size and the caller's address.
 */
export async function takeBackup(
  req: Request,
  runtime: () => Promise<Runtime>,
): Promise<{ archive: Uint8Array; filename: string }> {
  const actor = await authorizeBackup(req);
  const rt = await runtime();
  const archive = await embeddedSnapshot(rt);
  await recordBackup(rt, actor, archive.byteLength, clientAddress(req.headers));
  return { archive, filename: backupFileName() };
}
