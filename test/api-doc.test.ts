// docs/API.md's route table is written by `npm run docs:api` from the OpenAPI document; a route added,
// removed or renamed without running it leaves the committed table stale, and this test says so.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  apiDocPath,
  BEGIN,
  documentedApi,
  END,
  generatedApiDoc,
  routeTable,
  withRouteTable,
} from "../scripts/api-doc.ts";

describe("docs/API.md's route table", () => {
  const doc = documentedApi();

  it("lists every operation of the OpenAPI document with its scope", () => {
    const table = routeTable(doc);
    let operations = 0;
    for (const [route, item] of Object.entries(doc.paths ?? {})) {
      for (const method of ["get", "post", "put", "patch", "delete"]) {
        if (!(item as Record<string, unknown>)[method]) continue;
        operations++;
        expect(table).toContain(`\`${method.toUpperCase()} ${route}\``);
      }
    }
    expect(operations).toBeGreaterThan(30);
    expect(table).toMatch(/\| `POST \/api\/runs` \| Start a run \| `research` \| 201, /);
  });

  it("replaces only the generated part and refuses a file without the markers", () => {
    const text = `intro\n${BEGIN}\nold table\n${END}\nrest`;
    const updated = withRouteTable(text, doc);
    expect(updated.startsWith(`intro\n${BEGIN}\n`)).toBe(true);
    expect(updated.endsWith(`${END}\nrest`)).toBe(true);
    expect(updated).not.toContain("old table");
    expect(() => withRouteTable("no markers", doc)).toThrow(/markers/);
  });

  it("is committed as `npm run docs:api` writes it", () => {
    const committed = fs.readFileSync(apiDocPath, "utf8");
    expect(committed, "docs/API.md is stale: run `npm run docs:api`").toBe(generatedApiDoc(committed, doc));
  });
});
