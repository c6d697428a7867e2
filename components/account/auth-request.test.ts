import { describe, expect, it } from "vitest";
import { messageOf } from "./auth-request.ts";

describe("messageOf", () => {
  it("uses clearer words for better-auth's common errors", () => {
    expect(messageOf(401, { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" })).toBe(
      "Wrong email or password.",
    );
    expect(messageOf(403, { code: "BANNED_USER", message: "You have been banned" })).toMatch(/disabled/);
  });

  it("shows our own rule's message (invitations, last admin) as it is", () => {
    const invite = "An invitation is required to sign up here. Ask an admin for an invitation link.";
    expect(messageOf(403, { code: "INVITATION_REQUIRED", message: invite })).toBe(invite);
    expect(messageOf(400, { code: "LAST_ADMIN", message: "This is the last admin account." })).toBe(
      "This is the last admin account.",
    );
  });

  it("reads the app's own error shape, rate limits and bodies without a message", () => {
    expect(messageOf(404, { error: { code: "not_found", message: "No such open invitation." } })).toBe(
      "No such open invitation.",
    );
    expect(messageOf(429, { message: "Too many requests" })).toMatch(/Wait a minute/);
    expect(messageOf(502, null)).toBe("The request failed (HTTP 502).");
  });
});
