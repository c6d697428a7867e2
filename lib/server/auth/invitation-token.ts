/** Invitation links carry a random token; only its SHA-256 is stored, so a database leak reveals none. */
import { createHash, randomBytes } from "node:crypto";

export function newInvitationToken(): string {
  return randomBytes(24).toString("base64url");
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
