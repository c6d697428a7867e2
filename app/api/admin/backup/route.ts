import { handle } from "@/lib/http";
import { takeBackup } from "@/lib/server/operations/backup";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/**
 * A consistent snapshot of the embedded database (gzipped tar); what `npm run backup` saves. An
 * admin's session or BACKUP_SECRET, never an API token; every backup is in the audit log.
 */
export const GET = handle(async (req: Request) => {
  const { archive, filename } = await takeBackup(req, serverRuntime);
  return new Response(archive as BodyInit, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
});
