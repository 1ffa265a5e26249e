// Runs the tests' model server standalone (Playwright, manual poking with curl): the
// demo server behind the fault-injecting proxy of ./index.ts, where its admin API is
// documented; its test triggers are in ./behaviour.ts, the demo model's rules in
// lib/llm/demo-server/index.ts.
//
//   tsx tests/support/test-model/cli.ts --port 4010 [--host 127.0.0.1] [--chat-latency 0]
//                              [--summary-latency 0] [--tokens-per-chunk 3]
//
// Prints "Strata test server listening on <url>" once ready; stops on SIGINT/SIGTERM.

import { parseArgs } from "node:util";
import { startTestServer } from "./index";

function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    console.error(`--${name} must be a non-negative integer, got "${value}"`);
    process.exit(2);
  }
  return parsed;
}

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.STRATA_TEST_SERVER_PORT ?? "4010" },
    host: { type: "string", default: "127.0.0.1" },
    "chat-latency": { type: "string" },
    "summary-latency": { type: "string" },
    "tokens-per-chunk": { type: "string" },
  },
});

const server = await startTestServer({
  port: intOption(values.port, "port"),
  host: values.host,
  chatLatencyMs: intOption(values["chat-latency"], "chat-latency"),
  summaryLatencyMs: intOption(values["summary-latency"], "summary-latency"),
  tokensPerChunk: intOption(values["tokens-per-chunk"], "tokens-per-chunk"),
});
console.log(`Strata test server listening on ${server.url}`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => process.exit(0));
  });
}
