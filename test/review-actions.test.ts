// The knowledge and library server actions, called as the forms call them (FormData, the session
// from the request's cookies), against the app's runtime on PGlite: they go through the route
// handlers' own functions, so ownership, validation, undo and the upload limit are the API's.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Person, signUp, signUpInvited, useFreshAppDatabase } from "./support/app-session.ts";

let cookie = "";
vi.mock("next/headers", () => ({ headers: async () => new Headers(cookie ? { cookie } : {}) }));

const form = (fields: Record<string, string | string[] | Blob>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    for (const value of Array.isArray(v) ? v : [v]) f.append(k, value);
  }
  return f;
};
const idle = { status: "idle" } as const;

describe("knowledge and library server actions", () => {
  let stop: () => Promise<void>;
  let alice: Person;
  let bob: Person;
  let knowledge: typeof import("../lib/server/actions/knowledge.ts");
  let library: typeof import("../lib/server/actions/library.ts");

  beforeAll(async () => {
    process.env.RATE_LIMIT_UPLOADS_PER_MINUTE = "2";
    stop = await useFreshAppDatabase("pglite");
    alice = await signUp("alice@example.org");
    bob = await signUpInvited(alice, "bob@example.org");
    knowledge = await import("../lib/server/actions/knowledge.ts");
    library = await import("../lib/server/actions/library.ts");
  }, 60_000);
  afterAll(async () => stop?.());

  it("adds, rejects and undoes through the same functions as the API; others get a 404", async () => {
    cookie = alice.cookie;
    const added = await knowledge.addKnowledgeAction(
      idle,
      form({ category: "lesson", content: "Bleed radiators yearly." }),
    );
    expect(added).toMatchObject({ status: "ok", message: "Added “Bleed radiators yearly.”." });
    const id = (added as unknown as { data: { item: { id: string } } }).data.item.id;

    const rejected = await knowledge.reviewKnowledgeAction(
      idle,
      form({ id, action: "reject", previous: "established" }),
    );
    expect(rejected).toMatchObject({
      status: "ok",
      data: { action: "reject", ids: [id], previous: "established", items: [{ id, status: "deprecated" }] },
    });
    const undone = await knowledge.reviewKnowledgeAction(
      idle,
      form({ id, action: "restore", previous: "established" }),
    );
    expect(undone).toMatchObject({ status: "ok", data: { items: [{ id, status: "established" }] } });

    cookie = bob.cookie;
    const foreign = await knowledge.reviewKnowledgeAction(idle, form({ id, action: "approve" }));
    expect(foreign).toMatchObject({ status: "error", code: "not_found" });
    const share = await knowledge.reviewKnowledgeAction(idle, form({ id, action: "share" }));
    expect(share).toMatchObject({ status: "error", code: "forbidden" });
    const invalid = await knowledge.reviewKnowledgeAction(
      idle,
      form({ id: "not-a-uuid", action: "approve" }),
    );
    expect(invalid).toMatchObject({ status: "error", code: "validation_failed" });

    cookie = "";
    expect(await knowledge.reviewKnowledgeAction(idle, form({ id, action: "approve" }))).toMatchObject({
      status: "error",
      code: "unauthorized",
    });
  });

  it("uploads a file through the route's ingest, refuses what the route refuses, and counts uploads", async () => {
    cookie = alice.cookie;
    const file = new File(
      ["# Radiator guide\n\nLow flow temperatures need larger radiators.\n"],
      "guide.md",
      {
        type: "text/markdown",
      },
    );
    const stored = await library.addDocumentAction(idle, form({ mode: "file", file }));
    expect(stored).toMatchObject({
      status: "ok",
      message: expect.stringContaining("Added “Radiator guide”"),
      data: { mode: "file", document: { title: "Radiator guide", mimeType: "text/markdown", own: true } },
    });

    const sheet = new File(["PK\u0003\u0004"], "sheet.xlsx", { type: "application/vnd.ms-excel" });
    const refused = await library.addDocumentAction(idle, form({ mode: "file", file: sheet }));
    expect(refused).toMatchObject({ status: "error", code: "unsupported_media_type" });

    // The limit is 2 a minute: the third upload is refused before it is read.
    const limited = await library.addDocumentAction(
      idle,
      form({ mode: "text", text: "Some notes.", format: "text" }),
    );
    expect(limited).toMatchObject({ status: "error", code: "rate_limited" });
  });
});
