import { handle, readJson } from "@/lib/http";
import { requireCaller } from "@/lib/server/auth/caller";
import { serverRuntime } from "@/lib/server/runtime";
import { createToken, createTokenSchema } from "@/lib/server/tokens/create";
import { listTokens } from "@/lib/server/tokens/list";

export const dynamic = "force-dynamic";

/** The caller's tokens, newest first: names, dates and hints, never a secret. */
export const GET = handle(async (req: Request) => {
  const caller = await requireCaller(req, "read");
  return Response.json({ tokens: await listTokens(await serverRuntime(), caller.userId) });
});

/** A new token; its secret is in this answer only. Needs a session: a token cannot mint tokens. */
export const POST = handle(async (req: Request) => {
  const caller = await requireCaller(req, "session");
  const request = await readJson(req, createTokenSchema);
  const { token, secret } = await createToken(await serverRuntime(), caller, request);
  return Response.json({ ...token, token: secret }, { status: 201 });
});
