import { timingSafeEqual } from "node:crypto";
import { config } from "@/lib/config";
import { errorResponse } from "@/lib/http/handlers";
import { AppError } from "@/lib/errors";
import { metrics } from "@/lib/server/metrics";
import { instanceMetricsText } from "@/lib/server/process-metrics";
import { withTransportSecurity } from "@/lib/http/origin";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function authorized(request: Request, token: string | undefined): boolean {
  if (!token) return true;
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /api/metrics — Prometheus text format of this instance (all its processes summed,
 * with STRATA_PROCESSES above 1). With
 * STRATA_METRICS_TOKEN set it requires `Authorization: Bearer <token>` (not a
 * user's token: metrics are about the server, not an account).
 */
export async function GET(request: Request) {
  return withTransportSecurity(request, await metricsResponse(request));
}

async function metricsResponse(request: Request): Promise<Response> {
  if (!authorized(request, config().STRATA_METRICS_TOKEN)) {
    return errorResponse(new AppError("unauthorized", "Send the metrics token as Authorization: Bearer <STRATA_METRICS_TOKEN>."));
  }
  const { registry } = metrics();
  return new Response(await instanceMetricsText(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}
