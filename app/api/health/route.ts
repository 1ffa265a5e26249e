import { databaseHealth } from "@/lib/db/health";
import { jsonResponse } from "@/lib/http/handlers";
import { queueStatus } from "@/lib/queue";
import { withTransportSecurity } from "@/lib/http/origin";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/health — public, for load balancers and orchestrators: 200 when the
 * database answers, every migration is applied and the background queue (when this
 * instance has one) is not failed; 503 with the cause otherwise.
 */
export async function GET(request: Request) {
  const database = await databaseHealth();
  const queue = queueStatus();
  const causes = [
    ...(database.ok ? [] : [database.cause]),
    ...(queue.status === "failed" ? [`background queue failed: ${queue.error ?? "unknown error"}`] : []),
  ];
  return withTransportSecurity(request, jsonResponse({ status: causes.length ? "unavailable" : "ok", ...(causes.length ? { causes } : {}), database, queue }, causes.length ? 503 : 200));
}
