import { handle } from "@/lib/http";
import { exportAccountData, exportFilename } from "@/lib/server/account-data";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Everything the caller owns as one .tar.gz download (runs' reports and records, knowledge, library). */
export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req, "research");
  const archive = await exportAccountData(await serverRuntime(), owner);
  return new Response(new Uint8Array(archive), {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${exportFilename()}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
