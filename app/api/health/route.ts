import { publicHealth } from "@/lib/server/operations/health";

export const dynamic = "force-dynamic";

/** Anyone may ask: up or not, without error text or configuration (docs/API.md). */
export async function GET() {
  const health = await publicHealth();
  return Response.json(health, { status: health.database === "ok" ? 200 : 503 });
}
