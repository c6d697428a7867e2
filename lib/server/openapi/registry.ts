/**
 * Every /api route in the OpenAPI document, keyed by its path (`{param}` for `[param]`). Adding a
 * route is one line here, pointing at its path item (paths-*.ts, or a file beside the new route's
 * logic), whose operations each declare their scope (`...scoped("read")`, common.ts).
 * test/openapi.test.ts fails when a route file under app/api has no entry, or an entry lacks one of
 * the route's methods; test/token-scopes.test.ts when an operation declares no scope, or its
 * handler lets a token do more (or less) than the scope it declares.
 *
 * @internal to lib/server/openapi/: a helper of its actions, not an action; adapters do not import it.
 */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  runBundlePath,
  runImportPath,
  runReportDocxPath,
  runReportPdfPath,
} from "../exports/openapi-paths.ts";
import { runQuestionsPath } from "../questions/openapi.ts";
import { runDeeperPath } from "../runs/lineage-openapi.ts";
import { runRefreshPath } from "../runs/refresh-openapi.ts";
// Versions of a report and their diff (issue 32).
import { runDiffPath, runVersionsPath } from "../runs/versions-openapi.ts";
// Scheduled refresh and in-app notices (issue 32).
import { notificationsPath, notificationsReadPath, runSchedulePath } from "../schedules/openapi.ts";
import {
  accountExportPath,
  accountPath,
  accountUsagePath,
  auditPath,
  backupPath,
  mcpPath,
  metricsPath,
  settingsPath,
  settingsTestPath,
  systemPath,
  userLimitsPath,
  usersPath,
} from "./paths-admin.ts";
import { sessionPath, signInPath, signOutPath, signUpPath } from "./paths-auth.ts";
import {
  docsPath,
  healthPath,
  invitationPath,
  invitationsPath,
  knowledgeItemPath,
  knowledgePath,
  libraryDocumentPath,
  libraryPath,
  openApiPath,
  tokenPath,
  tokensPath,
} from "./paths-other.ts";
import {
  runCancelPath,
  runClarificationPath,
  runDirectivesPath,
  runEventsPath,
  runFinishPath,
  runPathItem,
  runReportPath,
  runSharesPath,
  runSourcePath,
  runsPath,
  sharePath,
} from "./paths-runs.ts";

export const apiPaths: ZodOpenApiPathsObject = {
  "/api/runs": runsPath,
  "/api/runs/{id}": runPathItem,
  "/api/runs/{id}/events": runEventsPath,
  "/api/runs/{id}/cancel": runCancelPath,
  "/api/runs/{id}/finish": runFinishPath,
  "/api/runs/{id}/directives": runDirectivesPath,
  "/api/runs/{id}/clarification": runClarificationPath,
  "/api/runs/{id}/report.md": runReportPath,
  "/api/runs/{id}/questions": runQuestionsPath,
  // Lineage (research deeper, versions): lib/server/runs/lineage-openapi.ts.
  "/api/runs/{id}/deeper": runDeeperPath,
  "/api/runs/{id}/report.pdf": runReportPdfPath,
  "/api/runs/{id}/report.docx": runReportDocxPath,
  "/api/runs/{id}/bundle": runBundlePath,
  "/api/runs/import": runImportPath,
  "/api/runs/{id}/sources/{sourceId}": runSourcePath,
  "/api/runs/{id}/shares": runSharesPath,
  "/api/runs/{id}/versions": runVersionsPath,
  "/api/runs/{id}/diff": runDiffPath,
  "/api/runs/{id}/schedule": runSchedulePath,
  "/api/notifications": notificationsPath,
  "/api/notifications/read": notificationsReadPath,
  "/api/runs/{id}/refresh": runRefreshPath,
  "/api/shares/{shareId}": sharePath,
  "/api/knowledge": knowledgePath,
  "/api/knowledge/{id}": knowledgeItemPath,
  "/api/library": libraryPath,
  "/api/library/{id}": libraryDocumentPath,
  "/api/tokens": tokensPath,
  "/api/tokens/{id}": tokenPath,
  "/api/invitations": invitationsPath,
  "/api/invitations/{id}": invitationPath,
  "/api/account": accountPath,
  "/api/account/export": accountExportPath,
  "/api/account/usage": accountUsagePath,
  "/api/admin/settings": settingsPath,
  "/api/admin/settings/test": settingsTestPath,
  "/api/admin/system": systemPath,
  "/api/admin/users": usersPath,
  "/api/admin/users/{id}/limits": userLimitsPath,
  "/api/admin/audit": auditPath,
  "/api/admin/backup": backupPath,
  "/api/mcp": mcpPath,
  "/api/metrics": metricsPath,
  "/api/health": healthPath,
  "/api/openapi.json": openApiPath,
  "/api/docs": docsPath,
  // better-auth's catch-all (app/api/auth/[...all]): its contract routes only.
  "/api/auth/sign-up/email": signUpPath,
  "/api/auth/sign-in/email": signInPath,
  "/api/auth/sign-out": signOutPath,
  "/api/auth/get-session": sessionPath,
};
