import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "./errors.ts";
import { errorResponse, jsonBodyLimitBytes, readJson } from "./http.ts";

const schema = z.object({ text: z.string() });

/** A request whose body arrives as a stream in `chunks` (no Content-Length unless given). */
function streamed(chunks: string[], headers: Record<string, string> = {}) {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks[pulled++];
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
      cancel() {
        cancelled = true;
      },
      // Nothing is pulled before someone reads.
    },
    { highWaterMark: 0 },
  );
  const req = new Request("http://localhost/api/x", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  return { req, pulled: () => pulled, cancelled: () => cancelled };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe("readJson body limit", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("is 256 KB unless JSON_BODY_MAX_BYTES says otherwise", () => {
    expect(jsonBodyLimitBytes({})).toBe(256 * 1024);
    expect(jsonBodyLimitBytes({ JSON_BODY_MAX_BYTES: "4096" })).toBe(4096);
    expect(() => jsonBodyLimitBytes({ JSON_BODY_MAX_BYTES: "lots" })).toThrow(/JSON_BODY_MAX_BYTES/);
  });

  it("reads a body within the limit", async () => {
    vi.stubEnv("JSON_BODY_MAX_BYTES", "2048");
    const { req } = streamed(['{"text":', '"soil"}']);
    expect(await readJson(req, schema)).toEqual({ text: "soil" });
  });

  it("refuses a declared Content-Length over the limit with 413 before reading any of it", async () => {
    vi.stubEnv("JSON_BODY_MAX_BYTES", "2048");
    const s = streamed([`{"text":"${"a".repeat(5000)}"}`], { "content-length": "5011" });
    const e = await refusal(readJson(s.req, schema));
    expect(e.code).toBe("payload_too_large");
    expect(e.message).toMatch(/exceeds the 2 KB limit/);
    expect(s.pulled()).toBe(0);
    expect(errorResponse(e).status).toBe(413);
  });

  it("counts a body without Content-Length while reading and stops at the limit", async () => {
    vi.stubEnv("JSON_BODY_MAX_BYTES", "2048");
    const chunk = "a".repeat(1000);
    const s = streamed(['{"text":"', chunk, chunk, chunk, chunk, chunk, '"}']);
    const e = await refusal(readJson(s.req, schema));
    expect(e.code).toBe("payload_too_large");
    // Three 1000-byte chunks cross 2 KB: the rest is never read, and the stream is cancelled.
    expect(s.pulled()).toBeLessThan(6);
    expect(s.cancelled()).toBe(true);
  });

  it("still tells malformed JSON and schema violations apart", async () => {
    expect((await refusal(readJson(streamed(["{nope"]).req, schema))).code).toBe("invalid_json");
    expect((await refusal(readJson(streamed(['{"text":1}']).req, schema))).code).toBe("validation_failed");
    expect((await refusal(readJson(streamed([]).req, schema))).code).toBe("invalid_json");
  });
});

describe("errorResponse", () => {
  it("carries the error's headers, e.g. Retry-After on a 429", async () => {
    const res = errorResponse(
      new AppError("rate_limited", "Slow down.", { headers: { "retry-after": "17" } }),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("17");
    expect(await res.json()).toEqual({ error: { code: "rate_limited", message: "Slow down." } });
  });
});
