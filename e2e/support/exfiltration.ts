/**
 * The hostile page's exfiltration attempts, end to end: the variants of its collector link a
 * scripted researcher requests with run text hung on (the spellings a normaliser treats as the
 * link itself), and the check that nothing of the run reached the collector.
 */
import type { CollectedRequest } from "../../test/support/web-fixture-hostile.ts";
import {
  COLLECTED_PATH,
  HOSTILE_PAGE_COLLECTOR_LINK,
  HOSTILE_PAGE_PATH,
} from "../../test/support/web-fixture-hostile.ts";
import { webUrl } from "./helpers.ts";
import { type AppSession, sessionHeaders } from "./session.ts";
import { parseSse } from "./sse.ts";

export const hostilePageUrl = () => `${webUrl()}${HOSTILE_PAGE_PATH}`;
/** The collector link exactly as the hostile page offers it: readable, and carrying nothing. */
export const collectorLinkUrl = () => `${webUrl()}${HOSTILE_PAGE_COLLECTOR_LINK}`;

/** The collector link with `secret` hung on: tracking parameters, a fragment, a case-changed key. */
export function exfiltrationVariants(secret: string): string[] {
  const link = collectorLinkUrl();
  const s = encodeURIComponent(secret);
  return [`${link}&utm_content=${s}`, `${link}&fbclid=${s}`, `${link}#${s}`, `${link}&UTM_Content=${s}`];
}

export async function collectorHits(): Promise<CollectedRequest[]> {
  return (await (await fetch(`${webUrl()}${COLLECTED_PATH}`)).json()).requests;
}

/** Every request that carries a 6-character piece of one of `texts` (case and URL encoding aside). */
export function leaks(requests: readonly CollectedRequest[], texts: readonly string[]): string[] {
  const pieces = new Set<string>();
  for (const text of texts) {
    const t = text.toLowerCase();
    for (let i = 0; i + 6 <= t.length; i++) pieces.add(t.slice(i, i + 6));
  }
  const decoded = (url: string) => {
    try {
      return decodeURIComponent(url.replaceAll("+", " "));
    } catch {
      return url;
    }
  };
  return requests.flatMap((r) => {
    const seen = `${r.url}\n${decoded(r.url)}`.toLowerCase();
    const found = [...pieces].find((p) => seen.includes(p));
    return found ? [`${r.url} carries "${found}"`] : [];
  });
}

/** A run's stored events with their payloads, read to the end of the stream (a finished run's). */
export async function storedEvents(app: AppSession, id: string): Promise<Record<string, unknown>[]> {
  const r = await fetch(`${app.url}/api/runs/${id}/events`, { headers: sessionHeaders(app) });
  return parseSse(await r.text())
    .blocks.filter((b) => b.id !== undefined && b.data !== undefined)
    .map((b) => JSON.parse(b.data as string));
}

/** Follows a running run's stream until an event of `type` is stored. */
export async function waitForStoredEvent(app: AppSession, id: string, type: string): Promise<void> {
  const r = await fetch(`${app.url}/api/runs/${id}/events`, {
    headers: sessionHeaders(app),
    signal: AbortSignal.timeout(30_000),
  });
  const reader = r.body!.getReader();
  let text = "";
  try {
    while (!text.includes(`\nevent: ${type}\n`)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream of run ${id} ended without ${type}`);
      text += new TextDecoder().decode(value);
    }
  } catch (e) {
    if ((e as Error).name !== "TimeoutError") throw e;
    throw new Error(`run ${id} stored no ${type} event within 30 s`);
  } finally {
    await reader.cancel().catch(() => {});
  }
}
