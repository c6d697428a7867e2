import { describe, expect, it } from "vitest";
import { createSeenUrls } from "./seen-urls.ts";

describe("createSeenUrls", () => {
  it("lets exactly one claimant win a page, whatever its spelling", () => {
    const seen = createSeenUrls();
    expect(seen.has("https://example.org/a")).toBe(false);
    expect(seen.claim("https://Example.org/a/?utm_source=feed#x")).toBe(true);
    expect(seen.claim("https://example.org/a")).toBe(false);
    expect(seen.has("https://example.org/a")).toBe(true);
    expect(seen.size).toBe(1);
  });

  it("starts from the pages a resumed run already read", () => {
    const seen = createSeenUrls(["https://example.org/read", "https://example.org/read/"]);
    expect(seen.size).toBe(1);
    expect(seen.claim("https://example.org/read")).toBe(false);
    expect(seen.claim("https://example.org/new")).toBe(true);
  });

  it("has a single winner among concurrent claimants", async () => {
    const seen = createSeenUrls();
    const wins = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i % 3));
        return seen.claim("https://example.org/contested");
      }),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
});
