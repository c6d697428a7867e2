// GET /api/runs/:id/report.pdf and /report.docx through their route handlers, on an embedded
// database with two accounts: the owner downloads real files drawn from the stored report,
// citations and passages; another account gets 404, as does a run without a report.
import { execFileSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "../db/queries/runs.ts";
import { runs, sources } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { shareRun } from "../lib/server/shares/create.ts";
import { revokeOwnShare } from "../lib/server/shares/revoke.ts";
import { createToken } from "../lib/server/tokens/create.ts";
import {
  call,
  origin,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";
import { makeReportedRun, REPORTED_SOURCES } from "./support/reported-run.ts";

type Handler = Parameters<typeof call>[0];
let stopApp: () => Promise<void>;
let alice: Person;
let bob: Person;
let runId: string;
let pdf: Handler;
let docx: Handler;

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  alice = await signUp("alice@example.org");
  bob = await signUpInvited(alice, "bob@example.org");
  pdf = (await import("../app/api/runs/[id]/report.pdf/route.ts")).GET as Handler;
  docx = (await import("../app/api/runs/[id]/report.docx/route.ts")).GET as Handler;
  ({ runId } = await makeReportedRun(await getRuntime(), alice.userId));
}, 60_000);

afterAll(async () => stopApp());

const get = (h: Handler, format: string, id: string, who: Person) =>
  call(h, "GET", `/api/runs/${id}/report.${format}`, { who, params: { id } });

describe("report files", () => {
  it("gives the owner a PDF with the report, its verdicts and the stored passages", async () => {
    const res = await get(pdf, "pdf", runId, alice);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="do-heat-pumps-work-in-cold-climates.pdf"',
    );
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], {
      input: Buffer.from(await res.arrayBuffer()),
      encoding: "utf8",
    }).replace(/\s+/g, " ");
    expect(text).toContain("Do heat pumps work in cold climates?");
    expect(text).toContain("Modern air-source heat pumps keep most of their efficiency");
    for (const s of REPORTED_SOURCES) expect(text).toContain(s.url);
    expect(text).toContain("Partly supported by the source: Defrost cycles cost a few percent of output.");
    expect(text).toContain("Defrost took 4% of the output in January.");
  });

  it("writes the file's own words in the run's report language", async () => {
    const { runId: german } = await makeReportedRun(await getRuntime(), alice.userId, undefined, {
      reportLanguage: "de",
    });
    const res = await get(pdf, "pdf", german, alice);
    expect(res.status).toBe(200);
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], {
      input: Buffer.from(await res.arrayBuffer()),
      encoding: "utf8",
    }).replace(/\s+/g, " ");
    expect(text).toContain("Recherchebericht ·");
    expect(text).toContain("Quellen");
    expect(text).toContain("Von der Quelle teilweise gestützt: Defrost cycles cost a few percent of output.");
    expect(text).toContain("Gespeicherte Textstelle:");
    expect(text).not.toContain("Partly supported by the source");
    const doc = unzipSync(new Uint8Array(await (await get(docx, "docx", german, alice)).arrayBuffer()));
    const xml = new TextDecoder().decode(doc["word/document.xml"]);
    expect(xml).toContain("Quellen");
    expect(xml).not.toContain(">Sources<");
  });

  it("gives the owner a DOCX whose footnotes name the cited URLs", async () => {
    const res = await get(docx, "docx", runId, alice);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const footnotes = new TextDecoder().decode(files["word/footnotes.xml"]);
    for (const s of REPORTED_SOURCES) expect(footnotes).toContain(s.url);
    expect(new TextDecoder().decode(files["word/document.xml"])).toContain("Installers named backup heat");
  });

  it("answers 404 for another account's run and for a run without a report", async () => {
    for (const [h, format] of [
      [pdf, "pdf"],
      [docx, "docx"],
    ] as const) {
      const res = await get(h, format, runId, bob);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
    const empty = await createRun((await getRuntime()).handle.db, {
      ownerId: alice.userId,
      question: "Not written yet",
      settings: {},
    });
    expect((await get(pdf, "pdf", empty.id, alice)).status).toBe(404);
  });

  it("hands the file to an MCP client (export_report), and nothing of another account's", async () => {
    const route = await import("../app/api/mcp/route.ts");
    const exportAs = async (who: Person) => {
      const { secret } = await createToken(
        await getRuntime(),
        { userId: who.userId, role: "user" },
        { name: "mcp" },
      );
      const client = new Client({ name: "export-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), {
          fetch: async (url, init) => route.POST(new Request(url, init)),
          requestInit: { headers: { authorization: `Bearer ${secret}` } },
        }),
      );
      try {
        return (await client.callTool({
          name: "export_report",
          arguments: { id: runId, format: "docx" },
        })) as CallToolResult;
      } finally {
        await client.close();
      }
    };
    const mine = await exportAs(alice);
    expect(mine.isError).toBeFalsy();
    const resource = mine.content[1] as {
      type: string;
      resource: { mimeType: string; blob: string; uri: string };
    };
    expect(resource.resource.uri).toBe(`${origin}/api/runs/${runId}/report.docx`);
    const files = unzipSync(new Uint8Array(Buffer.from(resource.resource.blob, "base64")));
    expect(new TextDecoder().decode(files["word/footnotes.xml"])).toContain(REPORTED_SOURCES[1].url);
    const theirs = await exportAs(bob);
    expect(theirs.isError).toBe(true);
    expect((theirs.content[0] as { text: string }).text).toBe("No research run with that id.");
  });

  it("gives a share link's reader the PDF only when the owner allowed it, with private documents redacted", async () => {
    const rt = await getRuntime();
    const { runId: shared, sourceIds } = await makeReportedRun(rt, alice.userId);
    // The third source is one of Alice's private library documents.
    await rt.handle.db
      .update(sources)
      .set({ provider: "library", url: "library://notes" })
      .where(eq(sources.id, sourceIds[2]));
    const sharedPdf = (await import("../app/share/[token]/report.pdf/route.ts")).GET as Handler;
    const fetchPdf = (token: string) =>
      call(sharedPdf, "GET", `/share/${token}/report.pdf`, { params: { token } });
    const closed = await shareRun(rt, shared, alice.userId, {});
    expect((await fetchPdf(closed.token)).status).toBe(404);
    const open = await shareRun(rt, shared, alice.userId, { allowDownload: true });
    expect(open.share.allowDownload).toBe(true);
    const res = await fetchPdf(open.token);
    expect(res.status).toBe(200);
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], {
      input: Buffer.from(await res.arrayBuffer()),
      encoding: "utf8",
    }).replace(/\s+/g, " ");
    expect(text).toContain(REPORTED_SOURCES[0].url);
    expect(text).toContain("[3] private document");
    expect(text).not.toContain("library://");
    expect(text).not.toContain("Installers named backup heat");
    // A German report says it in German: the words belong to the report, not to its reader.
    await rt.handle.db
      .update(runs)
      .set({ settings: { reportLanguage: "de" } })
      .where(eq(runs.id, shared));
    const german = execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], {
      input: Buffer.from(await (await fetchPdf(open.token)).arrayBuffer()),
      encoding: "utf8",
    }).replace(/\s+/g, " ");
    expect(german).toContain("[3] privates Dokument");
    expect(german).not.toContain("private document");
    await revokeOwnShare(rt, open.share.id, alice.userId);
    expect((await fetchPdf(open.token)).status).toBe(404);
  });
});
