/**
 * POST /api/mcp: who is asking (a personal API token only: MCP clients send one, and a browser's
 * cookie must not drive tools), then the MCP server for that person. GET and DELETE are for
 * sessions, which this stateless server does not keep: 405, as the transport's spec allows.
 */
import { AppError } from "../../errors.ts";
import { bearerToken, requireCaller } from "../auth/caller.ts";
import { publicOrigin } from "../auth/settings.ts";
import { serverRuntime } from "../runtime.ts";
import { answerMcpRequest } from "./server.ts";

export async function handleMcpPost(req: Request): Promise<Response> {
  if (bearerToken(req.headers) === null) {
    throw new AppError(
      "unauthorized",
      "MCP needs a personal API token: send it as Authorization: Bearer drt_… (create one on your account page).",
      { headers: { "www-authenticate": 'Bearer realm="mcp"' } },
    );
  }
  const caller = await requireCaller(req, "read");
  const rt = await serverRuntime();
  return answerMcpRequest(req, {
    rt,
    caller,
    origin: publicOrigin(req),
    env: process.env,
    signal: req.signal,
  });
}

export function mcpMethodNotAllowed(): Response {
  return Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32000, message: "This MCP server is stateless: send requests with POST." },
      id: null,
    },
    { status: 405, headers: { allow: "POST" } },
  );
}
