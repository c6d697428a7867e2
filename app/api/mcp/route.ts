import { handle } from "@/lib/http";
import { handleMcpPost, mcpMethodNotAllowed } from "@/lib/server/mcp/handler";

export const dynamic = "force-dynamic";

/** MCP over streamable HTTP (stateless), as the personal API token's owner. */
export const POST = handle(handleMcpPost);

export const GET = async () => mcpMethodNotAllowed();
export const DELETE = async () => mcpMethodNotAllowed();
