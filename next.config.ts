import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg-boss", "postgres"],
  poweredByHeader: false,
};

export default config;
