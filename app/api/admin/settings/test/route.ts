import { handle, readJson } from "@/lib/http";
import { requireAdmin } from "@/lib/server/auth/caller";
import { serverEffectiveEnv } from "@/lib/server/settings/effective";
import { providerTestSchema, testProvider } from "@/lib/server/settings/test-provider";

export const dynamic = "force-dynamic";

/** {provider, model?, key?, baseUrl?} → {ok, message}: one minimal call to the provider. */
export const POST = handle(async (req: Request) => {
  await requireAdmin(req, "session");
  const input = await readJson(req, providerTestSchema);
  return Response.json(await testProvider(input, await serverEffectiveEnv()));
});
