// `npm run restore -- FILE --yes`: replaces the app's database with a backup from `npm run backup`.
// - DATABASE_URL set: pg_restore of a pg_dump archive into that database (its objects replaced).
// - Embedded: the app must be stopped; DATA_DIR's current database is kept aside as
//   pgdata.before-restore-<time>, and the backup's auth secret (FILE.auth-secret) is restored too.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { embeddedDirOwner, restoreEmbedded, restorePostgres } from "../db/backup.ts";
import { defaultDataDir } from "../db/client.ts";

const { values, positionals } = parseArgs({
  options: { yes: { type: "boolean", default: false } },
  allowPositionals: true,
});
const file = positionals[0] ? path.resolve(positionals[0]) : "";
const url = process.env.DATABASE_URL || undefined;

function fail(message: string): never {
  console.error(`restore failed: ${message}`);
  process.exit(1);
}

if (!file || !fs.existsSync(file))
  fail(`give the backup file to restore (not found: ${file || "none given"}).`);
const target = url ? new URL(url).pathname.slice(1) || "the database at DATABASE_URL" : defaultDataDir();
if (!values.yes) fail(`this replaces everything in ${target}. Run again with --yes to go ahead.`);

try {
  if (url) {
    await restorePostgres(url, file);
  } else {
    const dataDir = defaultDataDir();
    const owner = embeddedDirOwner(dataDir);
    if (owner) fail(`the app (pid ${owner}) has ${dataDir} open: stop it first, then restore.`);
    const keptAside = await restoreEmbedded(new Uint8Array(fs.readFileSync(file)), dataDir);
    if (keptAside) console.log(`the previous database is kept in ${keptAside}`);
    const secret = `${file}.auth-secret`;
    if (fs.existsSync(secret)) {
      const current = path.join(dataDir, "auth-secret");
      if (fs.existsSync(current) && fs.readFileSync(current, "utf8") !== fs.readFileSync(secret, "utf8")) {
        fs.renameSync(current, `${current}.before-restore`);
      }
      fs.copyFileSync(secret, current);
      fs.chmodSync(current, 0o600);
    }
  }
  console.log(`restored ${file} into ${target}`);
} catch (e) {
  fail((e as Error).message);
}
