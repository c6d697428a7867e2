import { handle } from "@/lib/http";
import { requireAdmin } from "@/lib/server/auth/caller";
import { backupFileName, embeddedSnapshot } from "@/lib/server/backup";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** A consistent snapshot of the embedded database (gzipped tar); what `npm run backup` saves. */
export const GET = handle(async (req: Request) => {
  await requireAdmin(req);
  const archive = await embeddedSnapshot(await serverRuntime());
  return new Response(archive as BodyInit, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${backupFileName()}"`,
      "cache-control": "no-store",
    },
  });
});
