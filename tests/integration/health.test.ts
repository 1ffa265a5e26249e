// GET /api/health and GET /api/metrics, through their route handlers, on this run's
// database and on one that goes away under the running "instance" (this process).
import { afterAll, describe, expect, it } from "vitest";
import * as healthRoute from "../../app/api/health/route";
import * as metricsRoute from "../../app/api/metrics/route";
import { closeDb, getDb } from "../../lib/db/client";
import { dropDatabase, ensureDatabase } from "../../lib/db/admin";
import { TEST_DB } from "./support/database";

const runUrl = process.env.DATABASE_URL;

async function health(): Promise<{ status: number; body: { status: string; causes?: string[]; database: { ok: boolean; migrations?: number } } }> {
  const response = await healthRoute.GET(new Request("http://localhost/api/health"));
  return { status: response.status, body: (await response.json()) as never };
}

afterAll(async () => {
  await closeDb();
  if (runUrl) process.env.DATABASE_URL = runUrl;
});

describe("GET /api/health", () => {
  it("is 200 with the migrations applied on a working database", async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.database.ok).toBe(true);
    expect(body.database.migrations).toBeGreaterThan(0);
  });

  it.skipIf(TEST_DB === "embedded")("is 503 naming the cause when the database is missing, or goes away while the instance runs", async () => {
    const goneUrl = new URL(runUrl!);
    goneUrl.pathname = `${goneUrl.pathname}_gone`;
    await closeDb();
    // An instance pointed at a database that does not exist.
    process.env.DATABASE_URL = goneUrl.toString();
    const missing = await health();
    expect(missing.status).toBe(503);
    expect(missing.body.causes?.[0]).toMatch(/^database unreachable: .*does not exist/);

    // A database that worked, then was dropped under the running instance.
    await ensureDatabase(goneUrl.toString());
    await getDb();
    expect((await health()).status).toBe(200);
    await dropDatabase(goneUrl.toString());
    const dropped = await health();
    expect(dropped.status).toBe(503);
    expect(dropped.body.causes?.[0]).toMatch(/^database unreachable: /);
    await closeDb();
    process.env.DATABASE_URL = runUrl;
  });
});

describe("GET /api/metrics", () => {
  it("serves the Prometheus text format with Strata's metrics", async () => {
    const response = await metricsRoute.GET(new Request("http://strata.test/api/metrics"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    for (const name of ["strata_turns_total", "strata_compaction_attempts_total", "strata_summary_duration_seconds", "strata_prompt_tokens_total", "strata_summary_tokens_total"]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
  });

  it("requires the bearer token when STRATA_METRICS_TOKEN is set", async () => {
    process.env.STRATA_METRICS_TOKEN = "metrics-secret";
    try {
      expect((await metricsRoute.GET(new Request("http://strata.test/api/metrics"))).status).toBe(401);
      const wrong = new Request("http://strata.test/api/metrics", { headers: { authorization: "Bearer nope" } });
      expect((await metricsRoute.GET(wrong)).status).toBe(401);
      const right = new Request("http://strata.test/api/metrics", { headers: { authorization: "Bearer metrics-secret" } });
      expect((await metricsRoute.GET(right)).status).toBe(200);
    } finally {
      delete process.env.STRATA_METRICS_TOKEN;
    }
  });
});
