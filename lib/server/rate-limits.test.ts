// Whom a request is counted against. The session lookup is replaced so both branches run without a
// database: a signed-in caller by user id, anyone else by the address in X-Forwarded-For, which the
// production server (scripts/serve.mjs) writes from the socket unless a trusted proxy appended it.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { callerFromHeaders } from "./auth/caller.ts";
import { rateLimitKey } from "./rate-limits.ts";

vi.mock("./auth/caller.ts", () => ({ callerFromHeaders: vi.fn() }));
const caller = vi.mocked(callerFromHeaders);

const request = (forwardedFor?: string) =>
  new Request("http://localhost/api/runs", {
    method: "POST",
    headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
  });

describe("rateLimitKey", () => {
  beforeEach(() => {
    caller.mockReset();
    caller.mockResolvedValue(null);
  });

  it("counts a signed-in caller by user id, whatever the headers say", async () => {
    caller.mockResolvedValue({ userId: "user-42", email: "a@b.c", name: "A", role: "user", via: "session" });
    expect(await rateLimitKey(request("203.0.113.9"))).toBe("user:user-42");
  });

  it("counts an anonymous caller by the last X-Forwarded-For entry (the one our server or proxy wrote)", async () => {
    expect(await rateLimitKey(request("198.51.100.7, 203.0.113.9"))).toBe("ip:203.0.113.9");
    expect(await rateLimitKey(request("203.0.113.9"))).toBe("ip:203.0.113.9");
  });

  it("falls back to one shared key when no address is known (e.g. next dev without the header)", async () => {
    expect(await rateLimitKey(request())).toBe("anonymous");
  });

  it("lets a failure of the session lookup through", async () => {
    caller.mockRejectedValue(new Error("database down"));
    await expect(rateLimitKey(request())).rejects.toThrow("database down");
  });
});
