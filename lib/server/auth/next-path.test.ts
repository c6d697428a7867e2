import { describe, expect, it } from "vitest";
import { safeNextPath, sameSitePath, signInPath } from "./next-path.ts";

describe("safeNextPath", () => {
  it("keeps a path on this site with its query and fragment", () => {
    expect(safeNextPath("/runs/0f9d2c1e-0000-4000-8000-000000000000")).toBe(
      "/runs/0f9d2c1e-0000-4000-8000-000000000000",
    );
    expect(safeNextPath("/knowledge?status=provisional#top")).toBe("/knowledge?status=provisional#top");
    expect(safeNextPath(["/library", "/admin"])).toBe("/library");
  });

  it("refuses anything that could leave the site", () => {
    for (const raw of [
      "https://evil.example/",
      "//evil.example/path",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "evil.example",
      "/ /evil.example",
      "/\t/evil.example",
      "",
      undefined,
      null,
    ]) {
      expect(safeNextPath(raw), String(raw)).toBe("/");
    }
  });

  it("does not send a person back to the sign-in, sign-up or setup forms", () => {
    expect(safeNextPath("/sign-in?next=/admin")).toBe("/");
    expect(safeNextPath("/sign-up")).toBe("/");
    expect(safeNextPath("/setup")).toBe("/");
    expect(safeNextPath("/sign-insider")).toBe("/sign-insider");
  });
});

describe("sameSitePath", () => {
  it("keeps the sign-in pages (the language switcher returns to them) but nothing off the site", () => {
    expect(sameSitePath("/sign-in?next=/admin")).toBe("/sign-in?next=/admin");
    expect(sameSitePath("/sign-up?invite=abc")).toBe("/sign-up?invite=abc");
    expect(sameSitePath("//evil.example/x")).toBe("/");
    expect(sameSitePath("https://evil.example/")).toBe("/");
    expect(sameSitePath(undefined)).toBe("/");
  });
});

describe("signInPath", () => {
  it("asks sign-in to come back to the page, except home and anything off the site", () => {
    expect(signInPath("/runs/abc?x=1")).toBe(`/sign-in?next=${encodeURIComponent("/runs/abc?x=1")}`);
    expect(signInPath("/")).toBe("/sign-in");
    expect(signInPath(null)).toBe("/sign-in");
    expect(signInPath("//evil.example/x")).toBe("/sign-in");
  });
});
