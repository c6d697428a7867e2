// The OpenAPI document (GET /api/openapi.json) and its reference page (GET /api/docs): the document
// is valid OpenAPI 3.1, names every route file under app/api with the methods it exports, refers
// 4xx answers to the one error schema, and carries the request schemas the handlers validate with.
// Both routes answer without a session. Route handlers are called in-process.
import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { errorStatus } from "../lib/errors.ts";
import { reviewKnowledgeSchema } from "../lib/server/knowledge/review.ts";
import { createRunSchema } from "../lib/server/runs/input.ts";

type Json = Record<string, unknown>;
type Doc = Json & {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
};

const apiDir = path.resolve(import.meta.dirname, "../app/api");
const httpMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const origin = "http://localhost:3000";

/** The catch-all that answers every unknown /api path 404: no operation of the API. */
const unknownPaths = path.join("[...path]", "route.ts");

/** Every route file under app/api as [path with {params}, its exported methods]. */
function routeFiles(): { file: string; path: string; methods: string[] }[] {
  const files = fs
    .readdirSync(apiDir, { recursive: true, encoding: "utf8" })
    .filter((f) => /(^|\/)route\.ts$/.test(f) && f !== unknownPaths);
  return files.map((file) => {
    const segments = path
      .dirname(file)
      .split(path.sep)
      .filter((s) => s !== ".");
    const apiPath = `/api/${segments.map((s) => s.replace(/^\[(?:\.\.\.)?(\w+)\]$/, "{$1}")).join("/")}`;
    const source = fs.readFileSync(path.join(apiDir, file), "utf8");
    const methods = httpMethods.filter((m) =>
      new RegExp(`export\\s+(?:const|async\\s+function|function)\\s+${m}\\b`).test(source),
    );
    return { file, path: apiPath, methods };
  });
}

let doc: Doc;
let response: Response;

beforeAll(async () => {
  const { GET } = await import("../app/api/openapi.json/route.ts");
  response = await GET(new Request(`${origin}/api/openapi.json`));
  doc = (await response.clone().json()) as Doc;
});

describe("GET /api/openapi.json", () => {
  it("answers 200 JSON to a request without a session or token", () => {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: origin }]);
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8"));
    expect((doc.info as Json).version).toBe(pkg.version);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
  });

  it("has every route file under app/api, with the same methods", () => {
    const routes = routeFiles();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    for (const route of routes) {
      const catchAll = route.file.includes("[...");
      // A catch-all (better-auth's) is documented by its contract paths under the same prefix.
      const prefix = route.path.replace(/\/\{\w+\}$/, "/");
      const items = catchAll
        ? Object.entries(doc.paths).filter(([p]) => p.startsWith(prefix))
        : Object.entries(doc.paths).filter(([p]) => p === route.path);
      expect(items.length, `${route.file} → ${route.path} is missing from the document`).toBeGreaterThan(0);
      const documented = new Set(items.flatMap(([, item]) => Object.keys(item).map((m) => m.toUpperCase())));
      const exported = new Set(route.methods);
      if (catchAll) for (const m of exported) expect(documented, `${route.path} ${m}`).toContain(m);
      else expect(documented, route.path).toEqual(exported);
    }
  });

  it("describes no path that has no route file", () => {
    const routes = routeFiles();
    for (const documented of Object.keys(doc.paths)) {
      const known = routes.some(
        (r) =>
          r.path === documented ||
          (r.file.includes("[...") && documented.startsWith(r.path.replace(/\{\w+\}$/, ""))),
      );
      expect(known, documented).toBe(true);
    }
  });

  it("answers every 4xx of our routes with the error schema, naming the codes of that status", () => {
    let checked = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      if (p.startsWith("/api/auth/")) continue; // better-auth's own error shape
      for (const op of Object.values(item)) {
        for (const [status, answer] of Object.entries(op.responses as Record<string, Json>)) {
          if (!/^4\d\d$/.test(status)) continue;
          // The MCP transport refuses in JSON-RPC; only its authentication answers in our shape.
          if (p === "/api/mcp" && status !== "401") continue;
          const content = answer.content as Record<string, { schema: Json }>;
          expect(content["application/json"].schema, `${p} ${status}`).toEqual({
            $ref: "#/components/schemas/Error",
          });
          const codes = Object.entries(errorStatus).filter(([, s]) => s === Number(status));
          for (const [code] of codes) expect(answer.description, `${p} ${status}`).toContain(`\`${code}\``);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    const error = doc.components.schemas.Error as Json;
    expect(error.required).toEqual(["error"]);
    const inner = (error.properties as Record<string, Json>).error;
    expect(inner.required).toEqual(["code", "message"]);
    expect(((inner.properties as Record<string, Json>).code.enum as string[]).sort()).toEqual(
      Object.keys(errorStatus).sort(),
    );
  });

  it("carries the request schemas the handlers validate with", () => {
    const body = (p: string, m: string, type = "application/json") =>
      ((doc.paths[p][m].requestBody as Json).content as Record<string, { schema: Json }>)[type].schema;
    // POST /api/runs: the handler refuses a body without a question, and one with an unknown key.
    expect(createRunSchema.safeParse({}).success).toBe(false);
    const run = body("/api/runs", "post");
    expect(run.required).toEqual(["question"]);
    expect(run.additionalProperties).toBe(false);
    expect((run.properties as Record<string, Json>).question).toMatchObject({
      minLength: 3,
      maxLength: 4000,
    });
    // PATCH /api/knowledge/:id: the actions the handler's schema takes, and no other.
    const review = body("/api/knowledge/{id}", "patch");
    expect((review.properties as Record<string, Json>).action.enum).toEqual(
      reviewKnowledgeSchema.shape.action.options,
    );
    // POST /api/library takes JSON or a multipart upload.
    expect(body("/api/library", "post", "multipart/form-data").required).toEqual(["file"]);
    // Steering or approving the plan: two shapes.
    expect(body("/api/runs/{id}/directives", "post").anyOf).toHaveLength(2);
  });

  it("documents parameters, media types, 204s and who may call", () => {
    const events = doc.paths["/api/runs/{id}/events"].get;
    const names = (events.parameters as Json[]).map((p) => `${p.in}:${p.name}`);
    expect(names).toEqual(
      expect.arrayContaining(["path:id", "query:after", "query:deltas", "header:Last-Event-ID"]),
    );
    expect(Object.keys((events.responses as Record<string, Json>)["200"].content as Json)).toEqual([
      "text/event-stream",
    ]);
    const report = doc.paths["/api/runs/{id}/report.md"].get.responses as Record<string, Json>;
    expect(Object.keys(report["200"].content as Json)).toEqual(["text/markdown"]);
    expect(doc.paths["/api/runs/{id}"].delete.responses).toHaveProperty("204");
    expect((doc.components as Json).securitySchemes).toMatchObject({
      sessionCookie: { type: "apiKey", in: "cookie", name: "better-auth.session_token" },
      bearerToken: { type: "http", scheme: "bearer" },
    });
    expect(doc.security).toEqual([{ sessionCookie: [] }, { bearerToken: [] }]);
    for (const open of ["/api/health", "/api/openapi.json", "/api/docs", "/api/auth/sign-in/email"]) {
      const op = Object.values(doc.paths[open])[0];
      expect(op.security, open).toEqual([]);
    }
    expect(doc.paths["/api/tokens"].post.security).toEqual([{ sessionCookie: [] }]);
    const signUp = doc.paths["/api/auth/sign-up/email"].post.requestBody as Json;
    const signUpSchema = (signUp.content as Record<string, { schema: Json }>)["application/json"].schema;
    expect(Object.keys(signUpSchema.properties as Json)).toContain("invite");
  });
});

describe("GET /api/docs", () => {
  it("answers 200 HTML without a session: every operation, one h1, landmarks, no script", async () => {
    const { GET } = await import("../app/api/docs/route.ts");
    const res = await GET(new Request(`${origin}/api/docs`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        expect(html, `${method} ${p}`).toContain(`<code>${method.toUpperCase()} ${p}</code>`);
      }
    }
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    for (const landmark of ["<header>", "<nav ", "<main>"]) expect(html).toContain(landmark);
    // Nothing loaded from anywhere: no script, stylesheet, image or frame (the API's CSP forbids them).
    expect(html).not.toMatch(/<script|<link |<style|<img|<iframe|\ssrc=/);
    expect(html).toContain('<a href="#schema-run">Run</a>');
    expect(html).toContain(`curl -X POST &quot;${origin}/api/runs&quot;`);
    expect(html).toContain("-d &#39;{&quot;question&quot;:&quot;…&quot;}&#39;");
    expect(html).toContain("curl -N &quot;http://localhost:3000/api/runs/ID/events&quot;");
  });
});

describe("an /api path no route handles", () => {
  it("answers 404 in the contract's JSON error shape, whatever the method and body", async () => {
    const route = await import("../app/api/[...path]/route.ts");
    const methods = {
      GET: route.GET,
      POST: route.POST,
      PUT: route.PUT,
      PATCH: route.PATCH,
      DELETE: route.DELETE,
    };
    for (const [method, handler] of Object.entries(methods)) {
      const res = handler(
        new Request(`${origin}/api/no/such/route`, {
          method,
          ...(method === "GET"
            ? {}
            : { headers: { "content-type": "multipart/form-data" }, body: "not a form" }),
        }),
      );
      expect(res.status, method).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({
        error: {
          code: "not_found",
          message: "No API route at /api/no/such/route. The API is described at /api/openapi.json.",
        },
      });
    }
  });
});
