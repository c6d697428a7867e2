import { handle } from "@/lib/http";
import { clientAddress } from "@/lib/server/client-address";
import {
  authorizeBackup,
  backupFileName,
  embeddedSnapshot,
  recordBackup,
} from "@/lib/server/operations/backup";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/**
 * A consistent snapshot of the embedded database (gzipped tar); what `npm run backup` saves. An
 * admin's session or BACKUP_SECRET, never an API token; every backup is in the audit log.
 */
export const GET = handle(async (req: Request) => {
  const actor = await authorizeBackup(req);
  const rt = await serverRuntime();
  const archive = await embeddedSnapshot(rt);
  await recordBackup(rt, actor, archive.byteLength, clientAddress(req.headers));
  return new Response(archive as BodyInit, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${backupFileName()}"`,
      "cache-control": "no-store",
    },
  });
});
