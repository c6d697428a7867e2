/** Vitest's global setup: the migrated database template every test file starts from (db-template.ts). */
import type { TestProject } from "vitest/node";
import { buildMigratedTemplate } from "./support/db-template.ts";

export default async function setup(project: TestProject) {
  const template = await buildMigratedTemplate();
  project.provide("migratedTemplateDir", template.dir);
  return template.remove;
}
