// The Server-Timing breakdown must account for the whole handler: time in no span is
// reported as `unspanned`, and nested spans are not counted twice.
import { afterEach, describe, expect, it, vi } from "vitest";

type Timing = typeof import("../../../lib/log/timing");

async function loadTiming(): Promise<Timing> {
  vi.stubEnv("STRATA_SERVER_TIMING", "1");
  vi.resetModules();
  return import("../../../lib/log/timing");
}

function parse(header: string | null): Record<string, number> {
  return Object.fromEntries((header ?? "").split(", ").map((part) => [part.split(";")[0], Number(/dur=([\d.]+)/.exec(part)?.[1])]));
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("server timing", () => {
  it("reports the time outside every span as unspanned, counting nested spans once", async () => {
    const timing = await loadTiming();
    // A clock the test moves by hand, so the figures are exact.
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const response = await timing.withServerTiming(async () => {
      await timing.span("outer", async () => {
        now += 2;
        await timing.span("inner", async () => {
          now += 3;
        });
      });
      now += 5; // in no span
      const end = timing.startSpan("manual");
      timing.spanSync("nested", () => {
        now += 1;
      });
      end();
      timing.recordSpan("db", 7); // reported by the database client, inside other spans
      now += 4; // in no span
      return new Response("ok");
    });
    expect(parse(response.headers.get("server-timing"))).toEqual({
      outer: 5,
      inner: 3,
      nested: 1,
      manual: 1,
      db: 7,
      unspanned: 9,
      total: 15,
    });
  });

  it("adds no header when timings are off", async () => {
    vi.stubEnv("STRATA_SERVER_TIMING", "");
    vi.resetModules();
    const timing = await import("../../../lib/log/timing");
    const response = await timing.withServerTiming(async () => timing.span("a", async () => new Response("ok")));
    expect(response.headers.get("server-timing")).toBeNull();
  });
});
