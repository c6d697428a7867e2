import { handle } from "@/lib/http";
import { importRunBundle, readBundleBody } from "@/lib/server/exports/bundle-import";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Opens a run bundle as a read-only run of the caller → 201 {id}. */
export const POST = handle(async (req: Request) => {
  const owner = await currentOwner(req, "research");
  const bundle = await readBundleBody(req);
  return Response.json(await importRunBundle(await serverRuntime(), owner, bundle), { status: 201 });
});
