// npx tsx tests/support/outside-model/cli.ts --port 4020 [--summary extractive] [--titles follow|ignore] [--cite exact|wild] [--chat directed|search|ignore]
//   [--usage always|never|random] [--context-window 8192] [--seed 1] [--summary-latency-ms 0] [--chat-latency-ms 0] [--fail-rate 0] [--hang]
//   [--strict openai|nim|fastapi] [--thinking none|tags|field|unopened]
import { parseArgs } from "node:util";
import { CHAT_MODES, CITE_MODES, SUMMARY_MODES, TITLE_MODES, type ChatMode, type CiteMode, type SummaryMode, type TitleMode } from "./behaviour";
import { STRICT_STYLES, THINKING_MODES, startOutsideModel, type OutsideModelOptions, type OutsideModelPatch, type StrictStyle, type ThinkingMode } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4020" },
    summary: { type: "string", default: "extractive" },
    titles: { type: "string", default: "follow" },
    cite: { type: "string" },
    chat: { type: "string", default: "directed" },
    usage: { type: "string", default: "always" },
    "context-window": { type: "string" },
    seed: { type: "string", default: "1" },
    "summary-latency-ms": { type: "string", default: "0" },
    "chat-latency-ms": { type: "string", default: "0" },
    "fail-rate": { type: "string", default: "0" },
    hang: { type: "boolean", default: false },
    strict: { type: "string" },
    thinking: { type: "string", default: "none" },
  },
  strict: true,
});

function fail(message: string): never {
  console.error(`outside model: ${message}`);
  process.exit(2);
}

function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) fail(`--${name} must be a non-negative number, got "${text}"`);
  return value;
}

if (!(SUMMARY_MODES as readonly string[]).includes(values.summary)) fail(`--summary must be one of ${SUMMARY_MODES.join(", ")}`);
if (!(TITLE_MODES as readonly string[]).includes(values.titles)) fail(`--titles must be one of ${TITLE_MODES.join(", ")}`);
if (values.cite !== undefined && !(CITE_MODES as readonly string[]).includes(values.cite)) fail(`--cite must be one of ${CITE_MODES.join(", ")}`);
if (!(CHAT_MODES as readonly string[]).includes(values.chat)) fail(`--chat must be one of ${CHAT_MODES.join(", ")}`);
if (!["always", "never", "random"].includes(values.usage)) fail("--usage must be always, never or random");
if (values.strict !== undefined && !(STRICT_STYLES as readonly string[]).includes(values.strict)) fail(`--strict must be one of ${STRICT_STYLES.join(", ")}`);
if (!(THINKING_MODES as readonly string[]).includes(values.thinking)) fail(`--thinking must be one of ${THINKING_MODES.join(", ")}`);
const failRate = number("fail-rate", values["fail-rate"]) ?? 0;
if (failRate > 1) fail("--fail-rate must be between 0 and 1");

const options: OutsideModelPatch = {
  port: number("port", values.port),
  summaryMode: values.summary as SummaryMode,
  titles: values.titles as TitleMode,
  ...(values.cite ? { cite: true, citeMode: values.cite as CiteMode } : {}),
  chatMode: values.chat as ChatMode,
  usage: values.usage as OutsideModelOptions["usage"],
  contextWindow: number("context-window", values["context-window"]),
  seed: number("seed", values.seed),
  summaryLatencyMs: number("summary-latency-ms", values["summary-latency-ms"]),
  chatLatencyMs: number("chat-latency-ms", values["chat-latency-ms"]),
  failRate,
  hang: values.hang,
  ...(values.strict ? { strict: values.strict as StrictStyle } : {}),
  thinking: values.thinking as ThinkingMode,
};

const model = await startOutsideModel(options);
console.log(`outside model listening on ${model.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void model.close().then(() => process.exit(0));
  });
}
