// `npm run backup [-- --out FILE]`: a backup of the app's database.
// - DATABASE_URL set: pg_dump (custom format) of that database.
// - Embedded: a consistent snapshot of DATA_DIR's database. While the app runs, only it can take
//   one, so this asks it (GET /api/admin/backup) with the backup-only secret BACKUP_SECRET (the same
//   value the app has) at APP_URL (default http://127.0.0.1:PORT); the app writes it to its audit
//   log. When the app is stopped, it opens the directory itself.
//   BACKUP_TOKEN (an admin's API token, before tokens had scopes) is refused with the new variable's name.
//   DATA_DIR's generated auth secret is copied beside the archive: stored provider keys and webhook
//   secrets are encrypted with it.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { dumpPostgres, embeddedDirOwner, snapshotClosedEmbedded } from "../db/backup.ts";
import { defaultDataDir } from "../db/client.ts";

const { values } = parseArgs({ options: { out: { type: "string" } } });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const url = process.env.DATABASE_URL || undefined;
const out = path.resolve(
  values.out ?? path.join("backups", `deep-research-${stamp}.${url ? "dump" : "tar.gz"}`),
);
fs.mkdirSync(path.dirname(out), { recursive: true });

async function fromRunningApp(pid: number): Promise<Uint8Array> {
  const secret = process.env.BACKUP_SECRET?.trim();
  const base = process.env.APP_URL || `http://127.0.0.1:${process.env.PORT || 3000}`;
  if (!secret) {
    throw new Error(
      `The app (pid ${pid}) has the embedded database open, so it must take the snapshot.\n` +
        "Set BACKUP_SECRET to the same value the app was started with (generate one with `openssl rand -base64 32`) " +
        "and APP_URL if the app is not on http://127.0.0.1:PORT, or stop the app and run this again.",
    );
  }
  const res = await fetch(`${base}/api/admin/backup`, { headers: { authorization: `Bearer ${secret}` } });
  if (!res.ok) {
    const body = await res.text();
    throw new Error(`The app at ${base} refused the backup (${res.status}): ${body.slice(0, 300)}`);
  }
  return new Uint8Array(await res.arrayBuffer());
}

try {
  if (process.env.BACKUP_TOKEN) {
    throw new Error(
      "BACKUP_TOKEN is no longer used: API tokens cannot take backups. Set BACKUP_SECRET instead — a secret of its own " +
        "(`openssl rand -base64 32`), given to the app and to this command — and remove BACKUP_TOKEN (revoke that token too).",
    );
  }
  if (url) {
    await dumpPostgres(url, out);
  } else {
    const dataDir = defaultDataDir();
    if (!fs.existsSync(path.join(dataDir, "pgdata"))) throw new Error(`No embedded database in ${dataDir}.`);
    const owner = embeddedDirOwner(dataDir);
    const archive = owner ? await fromRunningApp(owner) : await snapshotClosedEmbedded(dataDir);
    fs.writeFileSync(out, archive, { mode: 0o600 });
    const secret = path.join(dataDir, "auth-secret");
    if (fs.existsSync(secret)) fs.copyFileSync(secret, `${out}.auth-secret`);
    if (fs.existsSync(`${out}.auth-secret`)) fs.chmodSync(`${out}.auth-secret`, 0o600);
  }
  console.log(`backup written: ${out} (${fs.statSync(out).size} bytes)`);
} catch (e) {
  console.error(`backup failed: ${(e as Error).message}`);
  process.exit(1);
}
