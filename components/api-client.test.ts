import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, authPost, errorText, toApiError } from "./api-client.ts";

afterEach(() => vi.unstubAllGlobals());

/** Answers every fetch with `status` and `body`, recording the requests. */
function answer(status: number, body: unknown) {
  const calls: [string, RequestInit][] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push([url, init]);
    return new Response(body === null ? null : JSON.stringify(body), { status });
  });
  return calls;
}

/** The error a call failed with (an unexpected success fails the test). */
const failure = (call: Promise<unknown>) =>
  call.then(
    () => expect.unreachable("the call should have failed"),
    (e: ApiError) => e,
  );

describe("toApiError", () => {
  it("keeps better-auth's code, by which the page says the error in its own words (error-text.ts)", () => {
    const e = toApiError(401, { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    expect([e.status, e.code]).toEqual([401, "INVALID_EMAIL_OR_PASSWORD"]);
    expect(toApiError(403, { code: "BANNED_USER", message: "You have been banned" }).code).toBe(
      "BANNED_USER",
    );
  });

  it("shows our own rule's message (invitations, last admin) as it is", () => {
    const invite = "An invitation is required to sign up here. Ask an admin for an invitation link.";
    expect(toApiError(403, { code: "INVITATION_REQUIRED", message: invite }).message).toBe(invite);
    expect(toApiError(400, { code: "LAST_ADMIN", message: "This is the last admin account." }).message).toBe(
      "This is the last admin account.",
    );
  });

  it("reads the contract's error shape with its code, rate limits and bodies without a message", () => {
    const e = toApiError(404, { error: { code: "not_found", message: "No such open invitation." } });
    expect([e.status, e.code, e.message]).toEqual([404, "not_found", "No such open invitation."]);
    // better-auth's limiter says nothing of when to try again: the page's rate_limited message does.
    expect(toApiError(429, { message: "Too many requests" }).code).toBe("rate_limited");
    // Our own limiter's sentence already says when to try again: kept.
    expect(toApiError(429, { error: { code: "rate_limited", message: "Try again in 30 s." } }).message).toBe(
      "Try again in 30 s.",
    );
    expect(toApiError(502, null).message).toBe("HTTP 502");
    expect(toApiError(502, null).code).toBe("http_502");
  });
});

describe("api", () => {
  it("sends JSON, never cached, and returns the answer", async () => {
    const calls = answer(201, { invitation: { url: "http://x/i/1" } });
    const r = await api<{ invitation: { url: string } }>("/api/invitations", {
      method: "POST",
      body: { a: 1 },
    });
    expect(r.invitation.url).toBe("http://x/i/1");
    const [url, init] = calls[0];
    expect(url).toBe("/api/invitations");
    expect(init.method).toBe("POST");
    expect(init.body).toBe('{"a":1}');
    expect(init.cache).toBe("no-store");
    expect((init.headers as Record<string, string>)["content-type"]).toBe("application/json");
  });

  it("reads without a body and answers null for 204", async () => {
    const calls = answer(204, null);
    expect(await api("/api/library/1", { method: "DELETE" })).toBeNull();
    expect(calls[0][1].body).toBeUndefined();
    expect((calls[0][1].headers as Record<string, string>)["content-type"]).toBeUndefined();
  });

  it("throws a typed ApiError with the contract's code and message", async () => {
    answer(422, { error: { code: "validation_failed", message: "expiresInDays: too big" } });
    const err = await failure(api("/api/tokens", { method: "POST", body: {} }));
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.code, errorText(err)]).toEqual([
      422,
      "validation_failed",
      "expiresInDays: too big",
    ]);
  });

  it("says the server could not be reached when fetch itself fails, and lets an abort through", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    const err = await failure(api("/api/runs"));
    expect([err.code, err.message]).toEqual(["network", expect.stringMatching(/could not be reached/)]);

    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal("fetch", async () => {
      throw new DOMException("aborted", "AbortError");
    });
    const aborted = await failure(api("/api/runs", { signal: controller.signal }));
    expect(aborted).not.toBeInstanceOf(ApiError);
  });

  it("posts better-auth routes under /api/auth and reads their error shape", async () => {
    const calls = answer(401, { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    const err = await failure(authPost("/sign-in/email", { email: "a@b.c", password: "x" }));
    expect(calls[0][0]).toBe("/api/auth/sign-in/email");
    expect([err.code, err.message]).toEqual(["INVALID_EMAIL_OR_PASSWORD", "Invalid email or password"]);
  });

  it("turns anything thrown into text", () => {
    expect(errorText("plain")).toBe("plain");
  });
});
