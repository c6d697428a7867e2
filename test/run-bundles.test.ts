// GET /api/runs/:id/bundle and POST /api/runs/import through their route handlers on an embedded
// database: the owner's bundle opens as a read-only run of another account with new ids, the same
// report, verdicts and passages, and its origin recorded; a bundle of another schema version, with
// an oversized field or with an owner id is refused 4xx and creates nothing; another account's run
// is 404, a running run 409.
import { execFileSync } from "node:child_process";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "../db/queries/runs.ts";
import { runs } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { exportReportFile } from "../lib/server/exports/report-files.ts";
import { call, type Person, signUp, signUpInvited, useFreshAppDatabase } from "./support/app-session.ts";
import { EN_REPORT } from "./support/export-cases.ts";
import { makeReportedRun, REPORTED_SOURCES } from "./support/reported-run.ts";

type Handler = Parameters<typeof call>[0];
// biome-ignore lint/suspicious/noExplicitAny: the bundle's JSON, read field by field in the assertions
type Json = Record<string, any>;
let stopApp: () => Promise<void>;
let alice: Person;
let bob: Person;
let runId: string;
let bundleGet: Handler;
let importPost: Handler;
let runGet: Handler;
let sourceGet: Handler;
let bundle: Json;

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  alice = await signUp("alice@example.org");
  bob = await signUpInvited(alice, "bob@example.org");
  bundleGet = (await import("../app/api/runs/[id]/bundle/route.ts")).GET as Handler;
  importPost = (await import("../app/api/runs/import/route.ts")).POST as Handler;
  runGet = (await import("../app/api/runs/[id]/route.ts")).GET as Handler;
  sourceGet = (await import("../app/api/runs/[id]/sources/[sourceId]/route.ts")).GET as Handler;
  ({ runId } = await makeReportedRun(await getRuntime(), alice.userId));
}, 60_000);

afterAll(async () => stopApp());

const runCount = async () => {
  const [row] = await (await getRuntime()).handle.db.select({ n: count() }).from(runs);
  return row.n;
};
const importAs = (who: Person, body: unknown) => call(importPost, "POST", "/api/runs/import", { who, body });

describe("run bundles", () => {
  it("exports the owner's run with its evidence and nothing of the owner's", async () => {
    const res = await call(bundleGet, "GET", `/api/runs/${runId}/bundle`, {
      who: alice,
      params: { id: runId },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain(".run-bundle.json");
    const text = await res.text();
    bundle = JSON.parse(text);
    expect(bundle.schemaVersion).toBe(1);
    expect(bundle.report.markdown).toBe(EN_REPORT);
    expect(bundle.sources.map((s: Json) => s.content).sort()).toEqual(
      REPORTED_SOURCES.map((s) => s.text).sort(),
    );
    expect(bundle.claims.map((c: Json) => c.support)).toEqual([
      "supported",
      "partially_supported",
      "unsupported",
    ]);
    expect(bundle.events.at(-1).type).toBe("run.completed");
    expect(text).not.toContain(alice.userId);
  });

  it("opens the bundle as a read-only run of the importer, with new ids and the same evidence", async () => {
    const res = await importAs(bob, bundle);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(id).not.toBe(runId);
    const view = (await (
      await call(runGet, "GET", `/api/runs/${id}`, { who: bob, params: { id } })
    ).json()) as Json;
    expect(view.report).toBe(EN_REPORT);
    expect(view.status).toBe("completed");
    expect(view.importedFrom).toMatchObject({ originalId: runId, schemaVersion: 1 });
    expect(view.citations.map((c: Json) => c.support)).toEqual([
      "supported",
      "partially_supported",
      "unsupported",
    ]);
    const oldIds = new Set(bundle.sources.map((s: Json) => s.id));
    expect(view.sources.some((s: Json) => oldIds.has(s.id))).toBe(false);
    // The hover card's passages come from the imported source.
    const sourceId = view.citations[1].sourceId;
    const source = (await (
      await call(sourceGet, "GET", `/api/runs/${id}/sources/${sourceId}`, {
        who: bob,
        params: { id, sourceId },
      })
    ).json()) as Json;
    expect(source.citations[0].passage).toBe("Defrost took 4% of the output in January.");
    // Its files say whose verdicts they are.
    const pdf = await exportReportFile(await getRuntime(), id, bob.userId, "pdf");
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], {
      input: pdf.bytes,
      encoding: "utf8",
    });
    expect(text.replace(/\s+/g, " ")).toContain(
      "Supported by the source (as recorded by the original instance)",
    );
    // Alice cannot see Bob's copy; Bob cannot export Alice's run.
    expect((await call(runGet, "GET", `/api/runs/${id}`, { who: alice, params: { id } })).status).toBe(404);
    const foreign = await call(bundleGet, "GET", `/api/runs/${runId}/bundle`, {
      who: bob,
      params: { id: runId },
    });
    expect(foreign.status).toBe(404);
  });

  it("refuses a changed schema version, an oversized field and an owner id, creating nothing", async () => {
    const before = await runCount();
    const cases: [string, Json, number][] = [
      ["schema version", { ...bundle, schemaVersion: 2 }, 422],
      ["oversized field", { ...bundle, run: { ...bundle.run, question: "q".repeat(5000) } }, 422],
      ["owner id", { ...bundle, run: { ...bundle.run, ownerId: alice.userId } }, 422],
      ["share token", { ...bundle, shares: [{ token: "x" }] }, 422],
      [
        "claim to a source not in the bundle",
        { ...bundle, claims: [{ ...bundle.claims[0], sourceId: "00000000-0000-4000-8000-000000000000" }] },
        422,
      ],
    ];
    for (const [what, body, status] of cases) {
      const res = await importAs(bob, body);
      expect(res.status, what).toBe(status);
      expect(((await res.json()) as Json).error.code, what).toBe("validation_failed");
    }
    const tooBig = await call(importPost, "POST", "/api/runs/import", {
      who: bob,
      body: JSON.stringify(bundle),
      headers: { "content-length": String(11 * 1024 * 1024) },
    });
    expect(tooBig.status).toBe(413);
    expect(await runCount()).toBe(before);
  });

  it("answers 409 for a run that has not ended", async () => {
    const running = await createRun((await getRuntime()).handle.db, {
      ownerId: alice.userId,
      question: "Still running",
      settings: {},
    });
    const res = await call(bundleGet, "GET", `/api/runs/${running.id}/bundle`, {
      who: alice,
      params: { id: running.id },
    });
    expect(res.status).toBe(409);
  });
});
