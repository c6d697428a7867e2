// Whom a request is counted against. The owner module is replaced so the anonymous branch (a
// request without a session, once accounts exist) can be exercised today.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "../errors.ts";
import { currentOwner } from "./owner.ts";
import { rateLimitKey } from "./rate-limits.ts";

vi.mock("./owner.ts", () => ({ currentOwner: vi.fn() }));
const owner = vi.mocked(currentOwner);

const request = (forwardedFor?: string) =>
  new Request("http://localhost/api/runs", {
    method: "POST",
    headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
  });

/** No session: the owner lookup answers 401, as it will once accounts exist. */
function anonymous() {
  owner.mockImplementation(async () => {
    throw new AppError("unauthorized", "Sign in.");
  });
}

describe("rateLimitKey", () => {
  beforeEach(() => {
    owner.mockReset();
  });

  it("counts a signed-in caller by user id, whatever the headers say", async () => {
    owner.mockResolvedValue("user-42");
    expect(await rateLimitKey(request("203.0.113.9"), { TRUST_PROXY: "true" })).toBe("user:user-42");
  });

  it("counts an anonymous caller by the address the trusted proxy added: the last X-Forwarded-For entry", async () => {
    anonymous();
    const req = request("198.51.100.7, 203.0.113.9");
    expect(await rateLimitKey(req, { TRUST_PROXY: "true" })).toBe("ip:203.0.113.9");
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY=true: anonymous callers then share one key", async () => {
    anonymous();
    expect(await rateLimitKey(request("203.0.113.9"), {})).toBe("anonymous");
    expect(await rateLimitKey(request("203.0.113.9"), { TRUST_PROXY: "false" })).toBe("anonymous");
    expect(await rateLimitKey(request(), { TRUST_PROXY: "true" })).toBe("anonymous");
  });

  it("lets any other failure of the owner lookup through", async () => {
    owner.mockImplementation(async () => {
      throw new Error("database down");
    });
    await expect(rateLimitKey(request(), {})).rejects.toThrow("database down");
  });
});
