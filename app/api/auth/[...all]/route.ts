import { authHandler } from "@/lib/server/auth/handler";

export const dynamic = "force-dynamic";

// better-auth's own routes (sign-up, sign-in, sign-out, session, password, admin), unchanged.
export const GET = authHandler;
export const POST = authHandler;
