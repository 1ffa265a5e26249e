// Large imports must not stop the server for everyone: while a ~20 MB import runs, and
// while ten users import ~8.5 MB each at once, another user's GET /api/health and a
// normal turn are answered within a second (loose on purpose: the point is that they are
// served at all), and a 40 MB import grows the process's memory by less than
// MEMORY_BOUND. Everything runs in this process through the route handlers, as in
// ./load.test.ts, so the event loop measured is the one the import runs on.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/conversations/import/route";
import { bigExport, bigExportBytes, importRequest, type BigExportOptions } from "../support/big-export";
import { bearer, signUp, uniqueEmail } from "../support/accounts";
import { setupHarness } from "./support/harness";
import { bystander, probeWhile, type Bystander } from "./support/bystander";

const h = setupHarness({ chatLatencyMs: 5, tokensPerChunk: 10 });
const ANSWER_WITHIN_MS = 1_000;
const MEMORY_BOUND = 200 * 1024 * 1024;

let other: Bystander;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

const probe = (until: Promise<unknown>) => probeWhile(other, until);

/**
 * Samples the process's resident memory from a worker thread: a sampler on the main
 * thread would miss the peak of an import that holds the event loop (as main's did).
 */
function rssSampler(): { stop: () => Promise<number> } {
  const worker = new Worker(
    `const { parentPort } = require("node:worker_threads");
     let peak = process.memoryUsage.rss();
     const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 10);
     parentPort.on("message", () => { clearInterval(timer); parentPort.postMessage(Math.max(peak, process.memoryUsage.rss())); });`,
    { eval: true },
  );
  return {
    stop: async () => {
      const peak = new Promise<number>((resolve) => worker.once("message", resolve));
      worker.postMessage("stop");
      const value = await peak;
      await worker.terminate();
      return value;
    },
  };
}

async function importAs(auth: { authorization: string }, options: BigExportOptions): Promise<Response> {
  return importRoute.POST(importRequest(bigExport(options), auth));
}

beforeAll(async () => {
  other = await bystander();
});

describe("large imports while others use the server", () => {
  it("a ~20 MB import: another user's health check and turn answer within 1 s", async () => {
    const options = { messages: 2000, contentChars: 10_000 };
    expect(bigExportBytes(options)).toBeGreaterThan(20_000_000);
    const auth = await bearer(h.user);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const importing = timed(() => importAs(auth, options));
    const seen = await probe(importing);
    lag.disable();
    const { ms, value } = await importing;
    expect(value.status).toBe(201);
    console.log(
      `20 MB import: ${Math.round(ms)} ms; health max ${Math.round(Math.max(...seen.health))} ms over ${seen.health.length}; turns max ${Math.round(Math.max(...seen.turns))} ms over ${seen.turns.length}; event-loop delay max ${Math.round(lag.max / 1e6)} ms, p99 ${Math.round(lag.percentile(99) / 1e6)} ms`,
    );
    expect(seen.failures).toEqual([]);
    expect(seen.health.length).toBeGreaterThan(3);
    expect(Math.max(...seen.health)).toBeLessThan(ANSWER_WITHIN_MS);
    expect(Math.max(...seen.turns)).toBeLessThan(ANSWER_WITHIN_MS);
  });

  it("ten users importing ~8.5 MB each at once: all stored, and another user is still served within 1 s", async () => {
    const options = { messages: 850, contentChars: 10_000 };
    const users = await Promise.all(Array.from({ length: 10 }, async (_, i) => bearer(await signUp(uniqueEmail(`importer${i}`)))));
    const all = timed(() => Promise.all(users.map((auth) => importAs(auth, options))));
    const seen = await probe(all);
    const { ms, value: responses } = await all;
    console.log(`10 × 8.5 MB: ${Math.round(ms)} ms; health max ${Math.round(Math.max(...seen.health))} ms over ${seen.health.length}; turns max ${Math.round(Math.max(...seen.turns))} ms over ${seen.turns.length}`);
    expect(responses.map((response) => response.status)).toEqual(users.map(() => 201));
    expect(seen.failures).toEqual([]);
    expect(Math.max(...seen.health)).toBeLessThan(ANSWER_WITHIN_MS);
    expect(Math.max(...seen.turns)).toBeLessThan(ANSWER_WITHIN_MS);
  }, 300_000);

  it(`a 40 MB import grows the process's memory by less than ${MEMORY_BOUND / 1024 / 1024} MB`, async () => {
    const options = { messages: 4000, contentChars: 10_000 };
    expect(bigExportBytes(options)).toBeGreaterThan(40_000_000);
    const auth = await bearer(h.user);
    const baseline = process.memoryUsage.rss();
    const sampler = rssSampler();
    let peak = baseline;
    try {
      const response = await importAs(auth, options);
      expect(response.status).toBe(201);
    } finally {
      peak = await sampler.stop();
    }
    console.log(`40 MB import: peak RSS growth ${Math.round((peak - baseline) / 1024 / 1024)} MB`);
    expect(peak - baseline).toBeLessThan(MEMORY_BOUND);
  }, 300_000);
});
