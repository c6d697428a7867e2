// Test-only: a finished run as the engine leaves it — three sources read in full, the report of
// export-cases.ts, its citations with verdicts and passages, and its closing event — for the export
// and bundle tests.
import type { Db } from "../../db/client.ts";
import { writeRunEnd } from "../../db/queries/events.ts";
import { createRun } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { sources } from "../../db/schema.ts";
import { withEventTransaction } from "../../lib/jobs/event-sink.ts";
import type { Runtime } from "../../lib/jobs/runtime.ts";
import { EN_REPORT } from "./export-cases.ts";

export const REPORTED_SOURCES = [
  {
    url: "https://energy.example/guide",
    title: "Energy guide",
    text: "Heat pumps keep most of their efficiency well below freezing. In the 2023 field study emissions fell by 60 percent after the switch.",
  },
  {
    url: "https://study.example/nordic",
    title: "Nordic field study",
    text: "Defrost took 4% of the output in January.",
  },
  {
    url: "https://survey.example/installers",
    title: "Installer survey",
    text: "Installers named backup heat as a frequent need.",
  },
];

export async function makeReportedRun(
  rt: Runtime,
  ownerId: string,
  question = "Do heat pumps work in cold climates?",
  settings: Record<string, unknown> = {},
): Promise<{ runId: string; sourceIds: string[] }> {
  const db: Db = rt.handle.db;
  const run = await createRun(db, { ownerId, question, settings: { maxSupervisionRounds: 2, ...settings } });
  const rows = await db
    .insert(sources)
    .values(
      REPORTED_SOURCES.map((s) => ({
        runId: run.id,
        url: s.url,
        normalizedUrl: s.url,
        title: s.title,
        domain: new URL(s.url).hostname,
        provider: "fetch",
        quality: "HIGH" as const,
        content: s.text,
        fetchedAt: new Date(),
      })),
    )
    .returning();
  const store = createDbRunStore(db, run.id);
  await store.saveReport({ markdown: EN_REPORT, partial: false, citationStats: {} });
  await store.saveCitations([
    {
      number: 1,
      sourceId: rows[0].id,
      sentence: "Modern air-source heat pumps keep most of their efficiency well below freezing.",
      support: "supported",
      reason: "lexical",
      passage: "Heat pumps keep most of their efficiency well below freezing.",
    },
    {
      number: 2,
      sourceId: rows[1].id,
      sentence: "Defrost cycles cost a few percent of output.",
      support: "partially_supported",
      reason: "model",
      passage: "Defrost took 4% of the output in January.",
    },
    {
      number: 3,
      sourceId: rows[2].id,
      sentence: "Backup resistance heat is rarely needed.",
      support: "unsupported",
      reason: "model: the survey says the opposite",
      passage: "Installers named backup heat as a frequent need.",
    },
  ]);
  await withEventTransaction(db, rt.bus, (tx, events) =>
    writeRunEnd(tx, run.id, { type: "run.completed", sources: 3, citations: 3, partial: false }, (e) =>
      events.append(run.id, e),
    ),
  );
  return { runId: run.id, sourceIds: rows.map((r) => r.id) };
}
