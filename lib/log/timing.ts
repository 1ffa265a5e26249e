// Per-request timings for measuring the turn path (bench/turn-overhead.ts), off by
// default. With STRATA_SERVER_TIMING=1 a route handler collects named spans (and the
// database queries Prisma reports) for its request and returns them in a
// `Server-Timing` header; otherwise every helper here is a plain pass-through.
import { AsyncLocalStorage } from "node:async_hooks";
import { config } from "../config.ts";

export const timingEnabled = config().STRATA_SERVER_TIMING === "1";

type Span = { ms: number; count: number };
export type Timings = Map<string, Span>;

const current = new AsyncLocalStorage<Timings>();

/** Adds `ms` to the span `name` of the request being served (no-op outside one). */
export function recordSpan(name: string, ms: number): void {
  const timings = current.getStore();
  if (!timings) return;
  const span = timings.get(name) ?? { ms: 0, count: 0 };
  span.ms += ms;
  span.count += 1;
  timings.set(name, span);
}

/** Times `work` as the span `name` when timings are on. */
export async function span<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!timingEnabled || !current.getStore()) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    recordSpan(name, performance.now() - started);
  }
}

/** The synchronous counterpart of `span`. */
export function spanSync<T>(name: string, work: () => T): T {
  if (!timingEnabled || !current.getStore()) return work();
  const started = performance.now();
  try {
    return work();
  } finally {
    recordSpan(name, performance.now() - started);
  }
}

/** `name;dur=1.23;desc="n=2"` per span, as the Server-Timing header lists them. */
export function serverTimingHeader(timings: Timings): string {
  return [...timings.entries()].map(([name, { ms, count }]) => `${name};dur=${ms.toFixed(3)};desc="n=${count}"`).join(", ");
}

/** Runs a request handler collecting its spans; adds the header to its response when timings are on. */
export async function withServerTiming(work: () => Promise<Response>): Promise<Response> {
  if (!timingEnabled) return work();
  const timings: Timings = new Map();
  const started = performance.now();
  const response = await current.run(timings, work);
  timings.set("total", { ms: performance.now() - started, count: 1 });
  try {
    response.headers.set("server-timing", serverTimingHeader(timings));
  } catch {
    // immutable headers (a proxied response): nothing to add
  }
  return response;
}
