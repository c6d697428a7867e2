import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { ResearchEvent } from "@/lib/research/events";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import { runTitle, shortUrl, stopReasonLabel } from "./activity-labels";
import { elapsedMs, formatElapsed, groupActivity, mergeEntries, toEntry } from "./activity-model";
import { directiveStatusText } from "./directive-status";

const t = createTranslator({ locale: "en", messages: en });
const german = createTranslator({ locale: "de", messages: de as unknown as typeof en });

const directives = [
  {
    id: "d1",
    topic: "Heat pump efficiency in cold climates, with measured figures",
    title: "Heat pump efficiency",
  },
  { id: "d2", topic: "Gas boiler costs", title: "Gas boiler costs" },
];
let seq = 0;
const entry = (e: ResearchEvent) => toEntry({ ...e, seq: ++seq, at: "2026-01-01T10:00:00Z" });

describe("activity entries", () => {
  it("keep the event's time, its directive and the event itself", () => {
    const e = toEntry({ type: "researcher.search", directiveId: "d2", query: "boilers", seq: 7, at: "t" });
    expect(e).toMatchObject({ seq: 7, at: "t", directiveId: "d2", type: "researcher.search" });
    expect(e.event).toEqual({ type: "researcher.search", directiveId: "d2", query: "boilers" });
    expect(toEntry({ type: "report.started", seq: 8 }).directiveId).toBeNull();
  });

  it("merge in seq order without duplicates when a stream replays", () => {
    const a = toEntry({ type: "report.started", seq: 2 });
    const b = toEntry({ type: "run.started", attempt: 1, seq: 1 });
    const merged = mergeEntries([a], [b, a]);
    expect(merged.map((e) => e.seq)).toEqual([1, 2]);
    expect(mergeEntries(merged, [a])).toBe(merged);
  });

  it("group by researcher, the most recently active group first, newest entries first", () => {
    seq = 0;
    const list = [
      entry({ type: "phase.started", phase: "supervision" }),
      entry({ type: "researcher.search", directiveId: "d1", query: "a" }),
      entry({ type: "researcher.search", directiveId: "d2", query: "b" }),
      entry({ type: "researcher.fetch", directiveId: "d1", url: "https://x.example/p", ok: true }),
    ];
    const groups = groupActivity(list, directives);
    expect(groups.map((g) => g.researcher)).toEqual([1, 2, null]);
    expect(groups[0].topic).toBe("Heat pump efficiency");
    expect(groups[0].entries.map((e) => e.seq)).toEqual([4, 2]);
  });
});

describe("elapsed time", () => {
  it("formats seconds, minutes and hours", () => {
    expect(formatElapsed(45_900, t)).toBe("45 s");
    expect(formatElapsed(185_000, t)).toBe("3 min 05 s");
    expect(formatElapsed(3_720_000, t)).toBe("1 h 02 min");
    expect(formatElapsed(-5, t)).toBe("0 s");
    expect(formatElapsed(185_000, german)).toBe("3 Min. 05 s");
  });

  it("runs from creation to the end, or to now while the run is going", () => {
    const createdAt = "2026-01-01T10:00:00.000Z";
    const now = Date.parse("2026-01-01T10:02:00.000Z");
    expect(elapsedMs({ createdAt, finishedAt: null, status: "running" }, now)).toBe(120_000);
    expect(elapsedMs({ createdAt, finishedAt: "2026-01-01T10:00:30.000Z", status: "completed" }, now)).toBe(
      30_000,
    );
  });
});

describe("directiveStatusText", () => {
  it("never says a directive is researching once the run has stopped", () => {
    const d = { id: "d1", status: "running" as const, error: null };
    expect(directiveStatusText(d, { status: "running" }, [], t)).toBe("Researching");
    expect(directiveStatusText(d, { status: "cancelled" }, [], t)).toBe("Stopped when the run was cancelled");
    expect(directiveStatusText({ ...d, status: "pending" }, { status: "completed" }, [], t)).toBe(
      "Not researched: the run ended first",
    );
  });

  it("says why a directive was skipped", () => {
    const d = { id: "d1", status: "skipped" as const, error: null };
    const aged = entry({
      type: "directive.aged_out",
      directiveId: "d1",
      round: 3,
      addedInRound: 1,
      topic: "t",
    });
    expect(directiveStatusText(d, { status: "completed" }, [aged], t)).toBe(
      "Skipped: waited too many rounds at low priority",
    );
    expect(directiveStatusText(d, { status: "completed" }, [], t)).toBe("Skipped");
    // Open when the research stopped: the engine's reason, in the page's words (event or stored error).
    expect(
      directiveStatusText(
        d,
        { status: "cancelled" },
        [entry({ type: "directive.skipped", directiveId: "d1", reason: "the run was cancelled" })],
        t,
      ),
    ).toBe("Stopped when the run was cancelled");
    const coded = entry({
      type: "directive.skipped",
      directiveId: "d1",
      reason: "supervision had finished before this directive could run",
      because: { code: "skip_supervision_over" },
    });
    expect(directiveStatusText(d, { status: "completed" }, [coded], german)).toBe(
      "Übersprungen: die Recherche war beendet, bevor dieses Thema an der Reihe war",
    );
    expect(
      directiveStatusText(
        { ...d, error: "research was stopped early at the owner's request" },
        { status: "completed" },
        [],
        t,
      ),
    ).toBe("Stopped when you asked for the report");
  });
});

describe("labels", () => {
  it("title the tab with the question, shortened", () => {
    expect(runTitle("Heat pump\nor boiler?", t)).toBe("Heat pump or boiler? — Deep Research");
    expect(runTitle("x".repeat(100), t)).toBe(`${"x".repeat(69)}… — Deep Research`);
  });

  it("shorten URLs to host and path, and name stop reasons in words", () => {
    expect(shortUrl("https://example.org/a/very/long/path/that/goes/on/and/on/forever.html", 30)).toBe(
      "example.org/a/very/long/path/…",
    );
    expect(stopReasonLabel(t, "budget")).toBe("its tool budget was spent");
    expect(stopReasonLabel(t, "something_new")).toBe("something new");
  });
});
