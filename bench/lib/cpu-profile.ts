/**
 * A page's CPU profile (Chrome DevTools Protocol Profiler) reduced to where the time went: self
 * time per function and per script, top first. Used when the report page misses its target.
 */
import type { CDPSession, Page } from "@playwright/test";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  byFunction: { name: string; selfMs: number }[];
  byScript: { script: string; selfMs: number }[];
}

const shortUrl = (url: string) =>
  url.replace(/^https?:\/\/[^/]+/, "").replace(/^\/_next\/static\//, "") || "(native)";

/** Self time per function and per script; idle and program time kept visible under their names. */
export function summarizeProfile(profile: Profile, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const fn = new Map<string, number>();
  const script = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const f = byId.get(id)?.callFrame;
    if (!f) return;
    total += ms;
    const name = `${f.functionName || "(anonymous)"} ${shortUrl(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + ms);
    const s = f.url ? shortUrl(f.url) : f.functionName || "(native)";
    script.set(s, (script.get(s) ?? 0) + ms);
  });
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    totalMs: total,
    byFunction: sorted(fn).map(([name, selfMs]) => ({ name, selfMs: Math.round(selfMs) })),
    byScript: sorted(script).map(([s, selfMs]) => ({ script: s, selfMs: Math.round(selfMs) })),
  };
}

/** Start/stop hooks recording a CPU profile of a page; the summary lands in `out.summary`. */
export function cpuProfiler(origin: string, out: { summary?: ProfileSummary }) {
  return (page: Page) => {
    let cdp: CDPSession;
    return {
      async start() {
        // On the app's origin first: a cross-site navigation may move the page to another renderer.
        await page.goto(`${origin}/api/health`);
        cdp = await page.context().newCDPSession(page);
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
        await cdp.send("Profiler.start");
      },
      async stop() {
        const { profile } = await cdp.send("Profiler.stop");
        out.summary = summarizeProfile(profile as unknown as Profile);
        await cdp.detach();
      },
    };
  };
}
