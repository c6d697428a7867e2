// `npm run db:migrate`: apply committed migrations to DATABASE_URL, or to the embedded PGlite in DATA_DIR.
import { defaultDataDir, migrateDatabase, openDatabase } from "../db/client.ts";

const url = process.env.DATABASE_URL || undefined;
const handle = await openDatabase({ url, dataDir: defaultDataDir() });
try {
  await migrateDatabase(handle);
  console.log(
    `migrations applied (${handle.kind === "postgres" ? "PostgreSQL" : `PGlite in ${handle.dataDir}`})`,
  );
} finally {
  await handle.close();
}
