// A knowledge item's edit history through PATCH /api/knowledge/:id, on PGlite and (with
// TEST_DATABASE_URL) PostgreSQL: each content change records who, when and the text it replaced;
// approving, re-saving the same text or changing only the category records nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appDatabaseKinds, call, type Person, signUp, useFreshAppDatabase } from "./support/app-session.ts";

const routes = async () => ({
  knowledge: await import("../app/api/knowledge/route.ts"),
  knowledgeItem: await import("../app/api/knowledge/[id]/route.ts"),
});

for (const kind of appDatabaseKinds()) {
  describe(`knowledge edit history (${kind})`, () => {
    let stop: () => Promise<void>;
    let r: Awaited<ReturnType<typeof routes>>;
    let alice: Person;

    beforeAll(async () => {
      stop = await useFreshAppDatabase(kind);
      r = await routes();
      alice = await signUp("alice@example.org");
    }, 60_000);
    afterAll(async () => stop?.());

    const patch = (id: string, body: unknown) =>
      call(r.knowledgeItem.PATCH, "PATCH", `/api/knowledge/${id}`, { who: alice, params: { id }, body });

    it("keeps every content edit, oldest first, and returns the history with the item", async () => {
      const created = await call(r.knowledge.POST, "POST", "/api/knowledge", {
        who: alice,
        body: { category: "finding", content: "Heat pumps reach a COP of 3 at 7 °C." },
      });
      const item = (await created.json()).item;
      expect(item.history).toEqual([]);

      const before = Date.now();
      const first = await (
        await patch(item.id, { action: "edit", content: "Heat pumps reach a COP of 3.5 at 7 °C." })
      ).json();
      expect(first.item.history).toHaveLength(1);
      expect(first.item.history[0]).toMatchObject({
        by: alice.userId,
        previousContent: "Heat pumps reach a COP of 3 at 7 °C.",
      });
      expect(Date.parse(first.item.history[0].at)).toBeGreaterThanOrEqual(before - 5_000);

      // No content change: approve, the same text again, a category only.
      await patch(item.id, { action: "approve" });
      await patch(item.id, { action: "edit", content: "Heat pumps reach a COP of 3.5 at 7 °C." });
      await patch(item.id, { action: "edit", category: "lesson" });
      const second = await (
        await patch(item.id, { action: "edit", content: "Air-source heat pumps: COP 3.5 at 7 °C." })
      ).json();
      expect(second.item.content).toBe("Air-source heat pumps: COP 3.5 at 7 °C.");
      expect(second.item.history.map((h: { previousContent: string }) => h.previousContent)).toEqual([
        "Heat pumps reach a COP of 3 at 7 °C.",
        "Heat pumps reach a COP of 3.5 at 7 °C.",
      ]);

      const listed = await (await call(r.knowledge.GET, "GET", "/api/knowledge", { who: alice })).json();
      expect(listed.items[0].history).toEqual(second.item.history);
    });
  });
}
