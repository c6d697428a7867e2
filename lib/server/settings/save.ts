/**
 * Saving the settings page (PUT /api/admin/settings): one or more areas in one transaction, new keys
 * sealed, a change record in words, the cache dropped so the next run reads the new values. The
 * rules themselves (merging, what is workable, the change words) are lib/jobs/settings/'s.
 */
import { readAppSettings, recordSettingsChanges, writeAppSetting } from "../../../db/queries/settings.ts";
import type { Env } from "../../env.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import {
  authSecretFor,
  invalidateEffectiveConfig,
  parseStoredSettings,
  settingsOverlay,
} from "../../jobs/settings/effective-config.ts";
import type { SettingsInput } from "../../jobs/settings/input.ts";
import { assertBaseUrlChanges, assertWorkable, mergeSettings } from "../../jobs/settings/merge.ts";
import { settingAreas } from "../../jobs/settings/schema.ts";
import { changeSummaries } from "../../jobs/settings/summaries.ts";

export { type SettingsInput, settingsInputSchema } from "../../jobs/settings/input.ts";

/** Saves the areas in `input` in one transaction, with one change record per difference. */
export async function saveSettings(
  rt: Runtime,
  actor: { userId: string; via: "session" | "token" },
  input: SettingsInput,
  base: Env = process.env,
): Promise<{ changes: string[] }> {
  const authSecret = authSecretFor(base);
  const recorded: string[] = [];
  const actorId = actor.userId;
  await rt.handle.db.transaction(async (tx) => {
    const { settings: before } = parseStoredSettings(await readAppSettings(tx));
    assertBaseUrlChanges(before, input, actor.via);
    const after = mergeSettings(before, input, authSecret);
    assertWorkable(after, { ...base, ...settingsOverlay(after, authSecret).overlay });
    for (const area of settingAreas) {
      const value = after[area];
      if (!input[area] || !value || JSON.stringify(value) === JSON.stringify(before[area])) continue;
      const summaries = changeSummaries(area, before, after, base);
      await writeAppSetting(tx, area, value as Record<string, unknown>, actorId);
      await recordSettingsChanges(tx, actorId, area, summaries);
      recorded.push(...summaries);
    }
  });
  invalidateEffectiveConfig();
  return { changes: recorded };
}
