/**
 * Runs before every page: a fresh nonce and the Content-Security-Policy built on it. The policy goes
 * on the request too, because that is where Next.js looks for the nonce to put on its own scripts
 * while rendering (every page is rendered per request: see app/layout.tsx). The other security
 * headers, and the API's policy, are static and set in next.config.ts.
 */
import { type NextRequest, NextResponse } from "next/server";
import { newNonce, pageContentSecurityPolicy } from "@/lib/server/content-security-policy";

/**
 * A multipart POST to a page without a Next-Action header is a server action sent by a form without
 * JavaScript, which Next.js reads as a form, or not a form at all; one whose body is not a readable
 * form (no boundary, or a body that does not match it) made Next.js answer 500. It is read here
 * first (Next.js keeps the body for the page) and refused 400. JavaScript's own action calls carry
 * Next-Action and are answered 4xx by Next.js itself.
 */
async function unreadableForm(request: NextRequest): Promise<boolean> {
  if (request.method !== "POST" || request.headers.has("next-action")) return false;
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "multipart/form-data") return false;
  try {
    await request.formData();
    return false;
  } catch {
    return true;
  }
}

export async function proxy(request: NextRequest) {
  if (await unreadableForm(request)) {
    return NextResponse.json(
      {
        error: {
          code: "bad_request",
          message: "The request body is not a readable multipart/form-data form.",
        },
      },
      { status: 400 },
    );
  }
  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  // Pages cannot see their own path; sign-in redirects use it to come back here afterwards.
  requestHeaders.set("x-request-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      // Pages only: not the API (next.config.ts), build assets or public files.
      source: "/((?!api/|_next/static|_next/image|icon.svg|robots.txt|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
