import { describe, expect, it } from "vitest";
import { createKnownSources } from "./known-sources.ts";

describe("the run's known sources", () => {
  it("starts from what the run stored, and knows a URL once it is claimed", () => {
    const known = createKnownSources(["https://a.example/x"]);
    expect(known.claim("https://a.example/x")).toBe(true);
    expect(known.claim("https://b.example/y")).toBe(false);
    expect(known.claim("https://b.example/y")).toBe(true);
  });
});
