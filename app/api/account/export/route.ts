import { handle } from "@/lib/http";
import { exportFilename, openAccountExport } from "@/lib/server/accounts/export";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/**
 * Everything the caller owns as one .tar.gz download (runs' reports and records, knowledge, library),
 * streamed as it is written; one at a time per person, and rate-limited.
 */
export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req, "research");
  const archive = await openAccountExport(await serverRuntime(), owner);
  return new Response(archive, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${exportFilename()}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
