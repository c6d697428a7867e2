/**
 * The better-auth instance: email + password accounts in our own database (PGlite or PostgreSQL
 * through the drizzle adapter), its rate limiter stored in the database so limits hold across
 * processes, and the admin plugin for roles and disabling accounts. Our rules sit in its hooks:
 * who may sign up (SIGNUP, invitations), the first account becomes admin and adopts the data made
 * before accounts existed, the last admin can never be disabled or demoted, and password changes,
 * resets and signing out everywhere revoke the account's API tokens (account-events.ts).
 */
import { drizzleAdapter } from "@better-auth/drizzle-adapter";
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { admin } from "better-auth/plugins/admin";
import type { Db } from "../../../db/client.ts";
import { adoptLegacyData, countUsers } from "../../../db/queries/accounts.ts";
import { accounts, authRateLimits, sessions, users, verifications } from "../../../db/schema.ts";
import { clientAddress } from "../client-address.ts";
import { afterAccountAction, afterSessionCreated } from "./account-events.ts";
import { guardAdminAction } from "./admin-guard.ts";
import { requestOrigin, type SignupMode } from "./settings.ts";
import { admitSignup, settleSignup } from "./signup.ts";

export interface AuthOptions {
  secret: string;
  signup: SignupMode;
  /** APP_URL's origin; null → each request's own origin is trusted (same-origin only). */
  origin: string | null;
  /** Secure cookies (behind a TLS-terminating proxy or an https APP_URL). */
  secureCookies: boolean;
  /** Sign-in/sign-up attempts per minute per client address. */
  signInPerMinute: number;
}

export const minPasswordLength = 8;

export function createAuth(db: Db, opts: AuthOptions) {
  return betterAuth({
    appName: "Deep Research",
    secret: opts.secret,
    baseURL: opts.origin ?? undefined,
    trustedOrigins: async (request) => [opts.origin, request ? requestOrigin(request) : null],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: authRateLimits,
      },
    }),
    emailAndPassword: { enabled: true, minPasswordLength, maxPasswordLength: 256, autoSignIn: true },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 300,
      customRules: {
        "/sign-in/email": { window: 60, max: opts.signInPerMinute },
        "/sign-up/email": { window: 60, max: opts.signInPerMinute },
        "/change-password": { window: 60, max: opts.signInPerMinute },
      },
    },
    advanced: { useSecureCookies: opts.secureCookies, ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
    plugins: [admin({ defaultRole: "user", adminRoles: ["admin"] })],
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-up/email") await admitSignup(db, opts.signup, ctx.body);
        if (ctx.path.startsWith("/admin/")) await guardAdminAction(db, ctx.path, ctx.body);
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-up/email")
          await settleSignup(db, ctx.body, ctx.context.newSession?.user.id ?? null);
        if (ctx.context.returned instanceof Error) return; // refused: nothing changed
        const user = ctx.context.session?.user;
        await afterAccountAction(db, {
          path: ctx.path,
          body: ctx.body,
          actor: user ? { id: user.id, name: user.name, email: user.email } : null,
          ipAddress: ctx.headers ? clientAddress(ctx.headers) : null,
        });
      }),
    },
    databaseHooks: {
      session: {
        create: { after: async (session, ctx) => afterSessionCreated(db, session, ctx?.path) },
      },
      user: {
        create: {
          // The first account on an empty database is the admin, whatever SIGNUP says.
          before: async (user) => ({
            data: { ...user, role: (await countUsers(db)) === 0 ? "admin" : "user" },
          }),
          after: async (user) => {
            if ((user as { role?: string }).role === "admin" && (await countUsers(db)) === 1) {
              await adoptLegacyData(db, user.id);
            }
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

export { APIError };
