import { expect, test } from "@playwright/test";

test("knowledge items: add, list, review (approve / edit / reject) with clear errors", async ({
  request,
}) => {
  const added = await request.post("/api/knowledge", {
    data: { category: "lesson", content: "Manufacturer COP figures are measured at mild temperatures." },
  });
  expect(added.status()).toBe(201);
  const { item } = await added.json();
  expect(item).toMatchObject({ status: "established", origin: "user", category: "lesson" });

  const list = await (await request.get("/api/knowledge?status=established")).json();
  expect(list.items.map((i: { id: string }) => i.id)).toContain(item.id);

  const edited = await request.patch(`/api/knowledge/${item.id}`, {
    data: { action: "edit", content: "Rated COP figures come from mild test conditions (7 °C)." },
  });
  expect(edited.status()).toBe(200);
  expect((await edited.json()).item.content).toBe("Rated COP figures come from mild test conditions (7 °C).");

  const rejected = await request.patch(`/api/knowledge/${item.id}`, { data: { action: "reject" } });
  expect((await rejected.json()).item.status).toBe("deprecated");
  const approved = await request.patch(`/api/knowledge/${item.id}`, { data: { action: "approve" } });
  expect((await approved.json()).item.status).toBe("established");

  for (const [body, status] of [
    [{ action: "edit" }, 422],
    [{ action: "destroy" }, 422],
  ] as const) {
    const r = await request.patch(`/api/knowledge/${item.id}`, { data: body });
    expect(r.status()).toBe(status);
    expect((await r.json()).error.code).toBe("validation_failed");
  }
  const missing = await request.patch("/api/knowledge/00000000-0000-4000-8000-000000000000", {
    data: { action: "approve" },
  });
  expect(missing.status()).toBe(404);
  expect((await request.get("/api/knowledge?status=bogus")).status()).toBe(400);
  const bad = await request.post("/api/knowledge", { data: { category: "rumour", content: "x" } });
  expect(bad.status()).toBe(422);
});
