/**
 * Who may create an account. The first account on an empty database always may (it becomes the
 * admin); after that SIGNUP decides: open, closed, or invite — a single-use invitation passed as the
 * `invite` field of better-auth's sign-up body, claimed atomically before the account is created.
 */
import { APIError } from "better-auth/api";
import type { Db } from "../../../db/client.ts";
import {
  claimInvitation,
  countUsers,
  findClaimedInvitation,
  markInvitationUsed,
  releaseInvitation,
} from "../../../db/queries/accounts.ts";
import { hashInvitationToken } from "./invitation-token.ts";
import type { SignupMode } from "./settings.ts";

interface SignupBody {
  email?: unknown;
  invite?: unknown;
}

const asBody = (body: unknown): SignupBody => (body && typeof body === "object" ? (body as SignupBody) : {});

export async function admitSignup(db: Db, mode: SignupMode, rawBody: unknown): Promise<void> {
  if ((await countUsers(db)) === 0) return;
  if (mode === "open") return;
  if (mode === "closed") {
    throw new APIError("FORBIDDEN", {
      code: "SIGNUP_CLOSED",
      message: "Sign-up is closed on this instance.",
    });
  }
  const body = asBody(rawBody);
  const invite = typeof body.invite === "string" ? body.invite.trim() : "";
  const email = typeof body.email === "string" ? body.email.trim() : "";
  if (!invite) {
    throw new APIError("FORBIDDEN", {
      code: "INVITATION_REQUIRED",
      message: "An invitation is required to sign up here. Ask an admin for an invitation link.",
    });
  }
  const claimed = await claimInvitation(db, hashInvitationToken(invite), email);
  if (!claimed) {
    throw new APIError("FORBIDDEN", {
      code: "INVITATION_INVALID",
      message:
        "This invitation cannot be used: it was already used, revoked or has expired, or it is for another email address.",
    });
  }
}

/** After sign-up: bind the claimed invitation to the new account, or free it when sign-up failed. */
export async function settleSignup(db: Db, rawBody: unknown, newUserId: string | null): Promise<void> {
  const invite = asBody(rawBody).invite;
  if (typeof invite !== "string" || !invite.trim()) return;
  const id = await findClaimedInvitation(db, hashInvitationToken(invite.trim()));
  if (!id) return;
  if (newUserId) await markInvitationUsed(db, id, newUserId);
  else await releaseInvitation(db, id);
}
