// The stored settings' cache is one per process, however many copies of the module the server's
// bundles hold: Next bundles the settings route and the settings page apart, and a save through the
// route must reach the page's next render at once, not after the cache's lifetime.
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../../db/client.ts";

const store = vi.hoisted(() => ({ raw: {} as Record<string, unknown>, reads: 0 }));
vi.mock("../../../db/queries/settings.ts", () => ({
  readAppSettings: async () => {
    store.reads++;
    return structuredClone(store.raw);
  },
}));

const modelsSetHere = (researcher: string) => ({
  models: { useEnvironment: false, model: "openai-compatible:m", roles: { researcher } },
});
const db = {} as Db;
const base = { MODEL: "openai-compatible:m" };

describe("the stored settings' cache", () => {
  it("is dropped for every copy of the module when one copy saves", async () => {
    const route = await import("./effective-config.ts");
    vi.resetModules();
    const page = await import("./effective-config.ts");
    expect(page).not.toBe(route);

    store.raw = modelsSetHere("openai-compatible:first");
    const before = await page.effectiveConfig(db, base);
    expect(before.env.MODEL_RESEARCHER).toBe("openai-compatible:first");
    // Within the cache's lifetime the page reads no more.
    await page.effectiveConfig(db, base);
    expect(store.reads).toBe(1);

    store.raw = modelsSetHere("openai-compatible:second");
    route.invalidateEffectiveConfig();
    const after = await page.effectiveConfig(db, base);
    expect(after.env.MODEL_RESEARCHER).toBe("openai-compatible:second");
    expect(store.reads).toBe(2);
  });
});
