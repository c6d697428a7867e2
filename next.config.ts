import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

// API answers are data, never documents: they may load nothing, run nothing, and not be framed.
// Pages get their policy, with a per-request nonce, from proxy.ts.
const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox";

const config: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, not bundled.
  // pdfkit reads its font metrics from its own folder at run time too.
  serverExternalPackages: ["@electric-sql/pglite", "pg-boss", "postgres", "piscina", "pdfkit"],
  poweredByHeader: false,
  // CI type-checks the whole project (`npm run typecheck`) before it builds for the e2e tests, and
  // says so with this variable: the build does not check the same files a second time.
  typescript: { ignoreBuildErrors: process.env.TYPECHECKED === "1" },
  // The library's upload form is a server action: it takes what POST /api/library takes (10 MB),
  // plus the multipart framing.
  // proxy.ts reads such a form before the action does: the copy of the body it reads has the same limit.
  experimental: { serverActions: { bodySizeLimit: "11mb" }, proxyClientMaxBodySize: "11mb" },
  // gzip would buffer the live event stream (SSE) in browsers that accept it; put a compressing
  // reverse proxy in front if wanted, with buffering off for /api/runs/*/events.
  compress: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      // Later entries win: a share link carries its token, so it is never sent on as a Referer.
      { source: "/share/:path*", headers: [{ key: "Referrer-Policy", value: "no-referrer" }] },
      {
        source: "/api/:path*",
        headers: [{ key: "Content-Security-Policy", value: apiContentSecurityPolicy }],
      },
    ];
  },
};

// Words come from one message module per locale (messages/*.json), loaded by i18n/request.ts.
export default createNextIntlPlugin("./i18n/request.ts")(config);
