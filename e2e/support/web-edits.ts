/**
 * Changes to the local web fixture's pages from a spec (the fixture runs in Playwright's main
 * process, the spec in a worker): through the fixture's test-only POST control
 * (test/support/web-fixture-edits.ts). A spec that edits restores every page when it ends, so the
 * specs after it see the web as it was.
 */
import { PAGE_EDITS_PATH, PAGE_RESTORE_PATH } from "../../test/support/web-fixture-edits.ts";
import { webUrl } from "./helpers.ts";

async function control(path: string, body: unknown): Promise<void> {
  const r = await fetch(`${webUrl()}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`web fixture ${path}: ${r.status} ${await r.text()}`);
}

/** Replaces `from` with `to` in the page's text (fails when the page does not contain `from`). */
export const editFixturePage = (slug: string, from: string, to: string) =>
  control(`${PAGE_EDITS_PATH}/${slug}`, { replace: { from, to } });

/** Takes the page down: 410 Gone, and no longer found by the fixture's search. */
export const removeFixturePage = (slug: string) => control(`${PAGE_EDITS_PATH}/${slug}`, { remove: true });

/** Every page back as it was. */
export const restoreFixturePages = () => control(PAGE_RESTORE_PATH, {});
