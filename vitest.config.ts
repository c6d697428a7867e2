import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**", ".next/**"],
    environment: "node",
    // Both cores: most files wait on sockets, child processes and database threads, so two files at a
    // time overlap their waits (vitest's default on a 2-core machine is one).
    maxWorkers: 2,
    // One migrated embedded database, copied by every test that opens one (test/support/db-template.ts).
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
