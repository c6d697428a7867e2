import { handle, readJson } from "@/lib/http";
import { requireAdmin } from "@/lib/server/auth/caller";
import { serverRuntime } from "@/lib/server/runtime";
import { saveSettings, settingsInputSchema } from "@/lib/server/settings/save";
import { settingsView } from "@/lib/server/settings/view";

export const dynamic = "force-dynamic";

/** The settings as the page shows them: keys only as set / not set and their last four characters. */
export const GET = handle(async (req: Request) => {
  await requireAdmin(req, "session");
  return Response.json(await settingsView(await serverRuntime()));
});

/** One or more areas ({models?, providers?, search?, runs?}); answers with the view after saving. */
export const PUT = handle(async (req: Request) => {
  const admin = await requireAdmin(req, "session");
  const input = await readJson(req, settingsInputSchema);
  const rt = await serverRuntime();
  const { changes } = await saveSettings(rt, admin, input);
  return Response.json({ changes, settings: await settingsView(rt) });
});
