/**
 * Server start-up, called once from instrumentation.ts: open the database and apply migrations
 * before the first request, so a fresh clone works with no manual step. A database that cannot be
 * reached does not stop the server: /api/health reports it and requests retry the connection.
 */
import { getDatabase } from "../../db/client.ts";

export async function bootstrap(): Promise<void> {
  try {
    const handle = await getDatabase();
    const where =
      handle.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${handle.dataDir}`;
    console.log(`[deep-research] database ready: ${where}, migrations applied`);
  } catch (e) {
    console.error("[deep-research] database not ready at start; /api/health will report it:", e);
  }
}
