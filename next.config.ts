import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg-boss", "postgres"],
  poweredByHeader: false,
  // gzip would buffer the live event stream (SSE) in browsers that accept it; put a compressing
  // reverse proxy in front if wanted, with buffering off for /api/runs/*/events.
  compress: false,
};

export default config;
