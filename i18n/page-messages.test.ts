import { describe, expect, it } from "vitest";
import en from "../messages/en.json";
import {
  adminPageNamespaces,
  onlyNamespaces,
  pageOnlyNamespaces,
  runPageNamespaces,
  withoutNamespaces,
} from "./page-messages";

describe("the messages a page's document carries", () => {
  it("splits the catalogue into the run page's namespaces and the rest, losing none", () => {
    const rest = withoutNamespaces(en, runPageNamespaces);
    const run = onlyNamespaces(en, runPageNamespaces);
    expect(Object.keys(run).sort()).toEqual([...runPageNamespaces].sort());
    expect(Object.keys(rest).some((name) => (runPageNamespaces as readonly string[]).includes(name))).toBe(
      false,
    );
    expect({ ...rest, ...run }).toEqual(en);
  });

  it("names each page-only namespace once, for the run page or the admin pages", () => {
    expect([...pageOnlyNamespaces].sort()).toEqual([...runPageNamespaces, ...adminPageNamespaces].sort());
    for (const name of pageOnlyNamespaces) expect(en).toHaveProperty(name);
  });

  it("leaves the page-only words out of every other page (at least a third of the catalogue)", () => {
    const size = (m: object) => JSON.stringify(m).length;
    expect(size(withoutNamespaces(en, pageOnlyNamespaces))).toBeLessThan((size(en) * 2) / 3);
  });
});
