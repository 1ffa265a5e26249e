// How the settings page presents each compression setting: its group, label, one-line
// explanation and input kind. Typed against CompressionSettings so a new setting in
// the schema fails to compile until it is described here.
import { RECALL_MODES, STRATEGIES, TRIGGER_MODES, type CompressionSettings } from "@/lib/compression/settings";

export type SettingName = keyof CompressionSettings;

export type FieldKind =
  | { type: "boolean" }
  | { type: "select"; options: readonly string[] }
  | { type: "fraction" }
  | { type: "integer"; min?: number; max?: number; unit?: string }
  | { type: "decimal"; min: number; max: number; step: number }
  | { type: "text"; model?: boolean; placeholder?: string }
  | { type: "longtext"; placeholder?: string }
  | { type: "overrides" };

export type FieldMeta = { label: string; help: string; kind: FieldKind };

export const SETTING_FIELDS: Record<SettingName, FieldMeta> = {
  enabled: { label: "Automatic compression", help: "Compress old messages automatically when a trigger fires.", kind: { type: "boolean" } },
  triggerMode: {
    label: "Trigger mode",
    help: "What decides when to compress: token share of the window, message count, or a sliding window.",
    kind: { type: "select", options: TRIGGER_MODES },
  },
  threshold: { label: "Auto threshold", help: "Share of the context window at which automatic compression runs.", kind: { type: "fraction" } },
  preemptiveThreshold: {
    label: "Pre-emptive threshold",
    help: "Past this share a compaction is prepared in the background after a reply (0 disables). Must be below the auto threshold. One that would free less than a compaction at the auto threshold waits for the conversation to grow, at most until 10 points under the auto threshold.",
    kind: { type: "fraction" },
  },
  compressionTarget: {
    label: "Compression target",
    help: "An automatic compaction aims to bring the context down to threshold × this fraction.",
    kind: { type: "fraction" },
  },
  carryDetails: {
    label: "Keep specifics",
    help: "Sentences with numbers, names, identifiers or paths that a summary left out are appended to it verbatim, within its length.",
    kind: { type: "boolean" },
  },
  hardLimitReserve: {
    label: "Hard-limit reserve",
    help: "Tokens kept free for the reply (at most 15% of a model's window); the hard limit is the window minus this.",
    kind: { type: "integer", min: 0, unit: "tokens" },
  },
  keepRecentCount: {
    label: "Keep recent",
    help: "The newest messages that are never compressed.",
    kind: { type: "integer", min: 0, unit: "messages" },
  },
  summaryMaxTokens: { label: "Summary length", help: "Maximum tokens of one summary.", kind: { type: "integer", min: 1, unit: "tokens" } },
  summaryModel: {
    label: "Summary model",
    help: "Model that writes summaries; empty uses the conversation's own model.",
    kind: { type: "text", model: true, placeholder: "(conversation model)" },
  },
  summaryTimeoutMs: {
    label: "Summary timeout",
    help: "How long a summary call may take before it counts as failed (1,000–600,000 ms).",
    kind: { type: "integer", min: 1000, max: 600_000, unit: "ms" },
  },
  summaryTemperature: {
    label: "Summary temperature",
    help: "Sampling temperature of the summary model (0–2; low keeps summaries factual).",
    kind: { type: "decimal", min: 0, max: 2, step: 0.1 },
  },
  strategy: {
    label: "Strategy",
    help: "How summaries are made: model summary, extraction without a model, structured sections, or per-turn digests.",
    kind: { type: "select", options: STRATEGIES },
  },
  customPrompt: {
    label: "Custom summary prompt",
    help: "Replaces the built-in instructions to the summary model (only it reads them: the chat model's instructions are set under Default instructions and per conversation); empty keeps the default.",
    kind: { type: "longtext", placeholder: "(built-in prompt)" },
  },
  maxSummaryTokensPerLevel: {
    label: "Budget per level",
    help: "Token budget of the active summaries of one level; past it the oldest are merged one level up.",
    kind: { type: "integer", min: 1, unit: "tokens" },
  },
  countThreshold: {
    label: "Count threshold",
    help: "Count mode: compress once this many messages are in the model's view.",
    kind: { type: "integer", min: 1, unit: "messages" },
  },
  countWindow: {
    label: "Count window",
    help: "Count mode: how many of the oldest messages one compaction takes (at most the threshold).",
    kind: { type: "integer", min: 1, unit: "messages" },
  },
  countKeepRecent: {
    label: "Count keep recent",
    help: "Count mode: newest messages never compressed (below the threshold).",
    kind: { type: "integer", min: 0, unit: "messages" },
  },
  countSummaryMaxChars: {
    label: "Count summary length",
    help: "Count mode: maximum characters of one summary.",
    kind: { type: "integer", min: 1, unit: "chars" },
  },
  windowSize: {
    label: "Window size",
    help: "Sliding window: messages kept in view before the oldest are compressed.",
    kind: { type: "integer", min: 1, unit: "messages" },
  },
  compressionBatchSize: {
    label: "Batch size",
    help: "Sliding window: messages compressed at a time (at most the window size).",
    kind: { type: "integer", min: 1, unit: "messages" },
  },
  dynamicWindow: {
    label: "Dynamic window",
    help: "Sliding window: grow the window with the conversation's length.",
    kind: { type: "boolean" },
  },
  extractFieldMaxChars: {
    label: "Extract field length",
    help: "Simple extract: characters kept of each key field.",
    kind: { type: "integer", min: 1, unit: "chars" },
  },
  digestConcurrency: {
    label: "Digest concurrency",
    help: "Turn digest: summary calls made at the same time (1–16).",
    kind: { type: "integer", min: 1, max: 16 },
  },
  preserveFactLines: {
    label: "Preserve FACT lines",
    help: "Lines written as FACT key=value reach the model verbatim through every summary and cut.",
    kind: { type: "boolean" },
  },
  toolResultMaxTokens: {
    label: "Largest tool result sent whole",
    help: "A longer tool result reaches the model as its head and tail with a note of what was left out (it stays stored whole; the model can open it). At most 10% of the window.",
    kind: { type: "integer", min: 256, max: 1_000_000, unit: "tokens" },
  },
  clearToolResults: {
    label: "Clear old tool output",
    help: "Before anything is summarized, results of older tool rounds become a one-line note (the call stays). No model call; the originals stay stored.",
    kind: { type: "boolean" },
  },
  keepToolRounds: {
    label: "Tool rounds kept whole",
    help: "The newest this many tool rounds keep their results when old tool output is cleared.",
    kind: { type: "integer", min: 0, max: 100 },
  },
  toolSessionThreshold: {
    label: "Tool-session threshold",
    help: "From a 24k window: when most rounds in view are tool calls whose results were cleared, automatic compression runs from this share of the window instead of the auto threshold (0: no difference). The calls and notes it summarizes stay stored and within the model's reach.",
    kind: { type: "fraction" },
  },
  budgetNote: {
    label: "Budget note",
    help: "Tell the model how full its context is in a short system note.",
    kind: { type: "boolean" },
  },
  recallMode: {
    label: "Recall",
    help:
      "How the model reaches compressed messages: history tools it may call (search, open by number), an automatic block of the best matches for your message, both, or off. Nothing is added until part of the conversation is compressed. With both, windows under 8k tokens get the automatic block only: the tools' definitions would take room they need.",
    kind: { type: "select", options: RECALL_MODES },
  },
  recallMaxTokens: {
    label: "Recall size",
    help:
      "Largest automatic recall block and largest history-tool result (at most 8% of the window). The block is added for one turn only, counted in the request like everything else, and left out when the request has no room for it.",
    kind: { type: "integer", min: 100, max: 20000, unit: "tokens" },
  },
  contextWindowOverrides: {
    label: "Context-window overrides",
    help: "Per-model context windows (tokens, at least 256) that override the built-in table.",
    kind: { type: "overrides" },
  },
};

export const SETTING_GROUPS: { title: string; description: string; fields: SettingName[] }[] = [
  {
    title: "Trigger",
    description: "When compression runs.",
    fields: ["enabled", "triggerMode", "threshold", "preemptiveThreshold", "compressionTarget", "hardLimitReserve"],
  },
  { title: "Selection", description: "Which messages are compressed.", fields: ["keepRecentCount"] },
  {
    title: "Tool output",
    description: "Large and old tool results, in the model's view only.",
    fields: ["toolResultMaxTokens", "clearToolResults", "keepToolRounds", "toolSessionThreshold"],
  },
  {
    title: "Summary model & strategy",
    description: "How summaries are written.",
    fields: ["strategy", "summaryModel", "summaryMaxTokens", "summaryTimeoutMs", "summaryTemperature", "customPrompt"],
  },
  { title: "Multi-level", description: "Summaries of summaries.", fields: ["maxSummaryTokensPerLevel"] },
  {
    title: "Count mode",
    description: "Used when the trigger mode is “count”.",
    fields: ["countThreshold", "countWindow", "countKeepRecent", "countSummaryMaxChars"],
  },
  {
    title: "Sliding window",
    description: "Used when the trigger mode is “sliding_window”.",
    fields: ["windowSize", "compressionBatchSize", "dynamicWindow"],
  },
  { title: "Extras", description: "Strategy details and model hints.", fields: ["carryDetails", "preserveFactLines", "extractFieldMaxChars", "digestConcurrency", "budgetNote"] },
  {
    title: "Recall",
    description: "How the model finds the original words of what was summarized (the block is small and counted).",
    fields: ["recallMode", "recallMaxTokens"],
  },
  { title: "Context-window overrides", description: "Model → tokens.", fields: ["contextWindowOverrides"] },
];

/** Shown next to each field: the default, readable. */
export function describeDefault(value: unknown): string {
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "string") return value === "" ? "empty" : value;
  if (typeof value === "number") return value.toLocaleString("en-US");
  if (value && typeof value === "object") return Object.keys(value).length === 0 ? "none" : JSON.stringify(value);
  return String(value);
}
