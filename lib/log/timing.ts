// Per-request timings for measuring the turn path (bench/turn-overhead.ts), off by
// default. With STRATA_SERVER_TIMING=1 a route handler collects named spans (and the
// database queries Prisma reports) for its request and returns them in a
// `Server-Timing` header; otherwise every helper here is a plain pass-through.
import { AsyncLocalStorage } from "node:async_hooks";
import { config } from "../config.ts";

// Read once, unlike the limits: every span on the turn path asks, and config() costs about
// 11 µs a call (it compares every variable); the switch is set for a benchmark run before start.
export const timingEnabled = config().STRATA_SERVER_TIMING === "1";

type Span = { ms: number; count: number };
export type Timings = Map<string, Span>;

// `open` counts the spans running; time of a span that starts with none open is
// "covered", and the handler's time not covered is reported as the span `unspanned`,
// so the breakdown accounts for the whole request (nested spans such as db, load or
// settingsRead are not counted twice).
type RequestTimings = { spans: Timings; open: number; covered: number };

const current = new AsyncLocalStorage<RequestTimings>();

/** Adds `ms` to the span `name` of the request being served (no-op outside one). */
export function recordSpan(name: string, ms: number): void {
  const request = current.getStore();
  if (request) addSpan(request, name, ms);
}

function addSpan(request: RequestTimings, name: string, ms: number): void {
  const span = request.spans.get(name) ?? { ms: 0, count: 0 };
  span.ms += ms;
  span.count += 1;
  request.spans.set(name, span);
}

/**
 * Starts the span `name` for a stretch of code that cannot be wrapped in a function
 * (one that yields, say); the returned function ends it.
 */
export function startSpan(name: string): () => void {
  const request = timingEnabled ? current.getStore() : undefined;
  if (!request) return () => {};
  request.open += 1;
  const started = performance.now();
  return () => {
    request.open -= 1;
    const ms = performance.now() - started;
    addSpan(request, name, ms);
    if (request.open === 0) request.covered += ms;
  };
}

/** Times `work` as the span `name` when timings are on. */
export async function span<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!timingEnabled) return work();
  const end = startSpan(name);
  try {
    return await work();
  } finally {
    end();
  }
}

/** The synchronous counterpart of `span`. */
export function spanSync<T>(name: string, work: () => T): T {
  if (!timingEnabled) return work();
  const end = startSpan(name);
  try {
    return work();
  } finally {
    end();
  }
}

/** `name;dur=1.23;desc="n=2"` per span, as the Server-Timing header lists them. */
export function serverTimingHeader(timings: Timings): string {
  return [...timings.entries()].map(([name, { ms, count }]) => `${name};dur=${ms.toFixed(3)};desc="n=${count}"`).join(", ");
}

/** Runs a request handler collecting its spans; adds the header to its response when timings are on. */
export async function withServerTiming(work: () => Promise<Response>): Promise<Response> {
  if (!timingEnabled) return work();
  const request: RequestTimings = { spans: new Map(), open: 0, covered: 0 };
  const started = performance.now();
  const response = await current.run(request, work);
  const total = performance.now() - started;
  request.spans.set("unspanned", { ms: Math.max(0, total - request.covered), count: 1 });
  request.spans.set("total", { ms: total, count: 1 });
  try {
    response.headers.set("server-timing", serverTimingHeader(request.spans));
  } catch {
    // immutable headers (a proxied response): nothing to add
  }
  return response;
}
