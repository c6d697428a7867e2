import { describe, expect, it } from "vitest";
import { groupRunFamilies } from "./families.ts";

const run = (id: string, parentId: string | null = null, versionOf: string | null = null) => ({
  id,
  parentId,
  versionOf,
});

describe("groupRunFamilies", () => {
  it("puts follow-up runs and versions under the report they came from, oldest first", () => {
    // Newest first, as listed: a grandchild, a version, an unrelated run, a child, the root.
    const list = [run("g", "c"), run("v", null, "root"), run("x"), run("c", "root"), run("root")];
    const families = groupRunFamilies(list);
    expect(families.map((f) => [f.run.id, f.related.map((r) => r.id)])).toEqual([
      ["root", ["c", "v", "g"]],
      ["x", []],
    ]);
  });

  it("lets a run whose parent is not listed head its own entry", () => {
    const families = groupRunFamilies([run("c", "gone"), run("y")]);
    expect(families.map((f) => f.run.id)).toEqual(["c", "y"]);
  });
});
