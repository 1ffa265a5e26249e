// Several server processes on one port (STRATA_PROCESSES): this process becomes the
// cluster's primary, forks that many `next start` workers (node:cluster shares the
// listening socket, connections go round-robin) and does three things for them:
// - passes SIGTERM / SIGINT on, so each worker drains its turns (lib/server/start.ts),
//   and exits once all have;
// - replaces a worker that dies, unless workers keep dying right after they start
//   (then it stops: a configuration or database problem a restart will not fix);
// - answers GET /api/metrics for the whole instance: the worker that got the request
//   asks here, every worker reports its registry, and prom-client's aggregator sums them
//   (the worker side is lib/server/process-metrics.ts; the message types are shared).
// What the workers share otherwise goes through PostgreSQL, as between instances.
import cluster from "node:cluster";
import promClient from "prom-client";

export const METRICS_COLLECT = "strata:metrics:collect";
export const METRICS_REPORT = "strata:metrics:report";
export const METRICS_RESULT = "strata:metrics:result";

// A worker that dies sooner than this after it started counts as failing at start.
const EARLY_EXIT_MS = 15_000;
const MAX_EARLY_EXITS = 3;
const REPORT_TIMEOUT_MS = 3_000;

export function runProcesses({ count, exec, args }) {
  // The workers get this process's Node flags (a profiler's, say) but never code it was given
  // to evaluate, which would run again in each of them.
  cluster.setupPrimary({ exec, args, execArgv: withoutEval(process.execArgv) });
  const startedAt = new Map();
  let stopping = false;
  let earlyExits = 0;
  let exitCode = 0;

  const fork = () => startedAt.set(cluster.fork().id, Date.now());
  for (let index = 0; index < count; index++) fork();
  console.log(`strata: ${count} server processes on one port`);

  cluster.on("exit", (worker, code, signal) => {
    const started = startedAt.get(worker.id);
    startedAt.delete(worker.id);
    if (stopping) {
      // Ended by the signal we passed on (Next exits with 128 + its number) is a clean stop.
      if (code && code !== 128 + 15 && code !== 128 + 2) exitCode = code;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    earlyExits = started !== undefined && Date.now() - started < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    if (earlyExits >= MAX_EARLY_EXITS) {
      console.error(`strata: server processes keep exiting right after they start (last: code ${code}, signal ${signal}); stopping`);
      stopping = true;
      exitCode = code || 1;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    console.error(`strata: server process ${worker.process.pid} exited (code ${code}, signal ${signal}); starting another`);
    fork();
  });

  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }

  // Metrics of the whole instance, asked for by the worker that got the request.
  const collections = new Map();
  cluster.on("message", (worker, message) => {
    if (message?.type === METRICS_COLLECT) {
      const workers = Object.values(cluster.workers ?? {}).filter(Boolean);
      const collection = { requester: worker, reports: [], expected: workers.length };
      const finish = () => {
        if (!collections.delete(message.id)) return;
        const registry = promClient.AggregatorRegistry.aggregate(collection.reports);
        void registry.metrics().then((text) => collection.requester.send({ type: METRICS_RESULT, id: message.id, text, processes: collection.reports.length }));
      };
      collection.finish = finish;
      collections.set(message.id, collection);
      setTimeout(finish, REPORT_TIMEOUT_MS).unref();
      for (const each of workers) each.send({ type: METRICS_REPORT, id: message.id });
    } else if (message?.type === METRICS_REPORT) {
      const collection = collections.get(message.id);
      if (!collection) return;
      collection.reports.push(message.metrics);
      if (collection.reports.length >= collection.expected) collection.finish();
    }
  });
}

function withoutEval(flags) {
  const kept = [];
  for (let index = 0; index < flags.length; index++) {
    const flag = flags[index];
    if (["-e", "--eval", "-p", "--print"].includes(flag)) index++;
    else if (!/^--(eval|print|input-type)(=|$)/.test(flag)) kept.push(flag);
  }
  return kept;
}
