import { describe, expect, it } from "vitest";
import en from "../messages/en.json";
import { onlyNamespaces, pageNamespaces, pageOnlyNamespaces, withoutNamespaces } from "./page-messages";

describe("the messages a page's document carries", () => {
  it("splits the catalogue into each part's namespaces and the rest, losing none", () => {
    const rest = withoutNamespaces(en, pageOnlyNamespaces);
    const parts = onlyNamespaces(en, pageOnlyNamespaces);
    expect(Object.keys(parts).sort()).toEqual([...pageOnlyNamespaces].sort());
    expect(Object.keys(rest).some((name) => pageOnlyNamespaces.includes(name))).toBe(false);
    expect({ ...rest, ...parts }).toEqual(en);
  });

  it("names only namespaces the catalogue has, each part's own", () => {
    for (const names of Object.values(pageNamespaces))
      for (const name of names) expect(en).toHaveProperty(name);
    expect(pageNamespaces.run).toEqual(["progress", "run", "runEvents"]);
  });

  it("leaves the other pages' words out of a run page (at least a third of the catalogue)", () => {
    const size = (m: object) => JSON.stringify(m).length;
    const runPage = {
      ...withoutNamespaces(en, pageOnlyNamespaces),
      ...onlyNamespaces(en, pageNamespaces.run),
    };
    expect(size(runPage)).toBeLessThan((size(en) * 2) / 3);
  });
});
