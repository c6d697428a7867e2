"use server";
/**
 * The home page's "Open a run bundle" form: the chosen file goes through the same import as
 * POST /api/runs/import (size limit, schema version, strict validation, quota, rate limit), then
 * the browser is sent to the new run's page.
 */
import { redirect } from "next/navigation";
import { AppError } from "../../errors.ts";
import { parseJsonBytes } from "../../http.ts";
import { actionCaller } from "../actions/action-caller.ts";
import { type ActionState, runAction } from "../actions/action-state.ts";
import { serverRuntime } from "../runtime.ts";
import { bundleImportLimitBytes, importRunBundle } from "./bundle-import.ts";

export async function importBundleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const caller = await actionCaller();
    const file = form.get("bundle");
    if (!(file instanceof Blob) || file.size === 0) {
      throw new AppError("validation_failed", "Choose a run bundle file (…run-bundle.json).");
    }
    const max = bundleImportLimitBytes();
    if (file.size > max) {
      throw new AppError(
        "payload_too_large",
        `The bundle exceeds the ${max / 1024 / 1024} MB limit (BUNDLE_IMPORT_MAX_MB).`,
      );
    }
    const raw = parseJsonBytes(new Uint8Array(await file.arrayBuffer()));
    const { id } = await importRunBundle(await serverRuntime(), caller.userId, raw);
    redirect(`/runs/${id}`);
  });
}
