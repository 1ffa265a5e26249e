// The outside model's rules, as pure functions. Nothing here may come from the app
// (see README.md): the point is a second, independently written opinion on what a
// model says, so the app's own assumptions cannot leak into the checks.

export const SUMMARY_MODES = ["extractive", "terse", "verbose", "cut", "empty", "foreign", "drop_facts", "prose", "mixed"] as const;
export type SummaryMode = (typeof SUMMARY_MODES)[number];
/** The modes `mixed` chooses from. */
export const MIXED_CHOICES = ["extractive", "terse", "verbose", "cut", "drop_facts"] as const satisfies readonly SummaryMode[];

export type ToolCallShape = { id?: string; type?: string; function?: { name?: string; arguments?: string } };
export type Message = { role: string; content?: unknown; tool_calls?: ToolCallShape[]; tool_call_id?: string; name?: string };
export type ToolShape = { type?: string; function?: { name?: string } };
export type CompletionBody = {
  model?: string;
  messages: Message[];
  tools?: ToolShape[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  response_format?: { type?: string };
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
};
export type Reply = { text: string; finishReason: "stop" | "length" };
export type ChatReply = { kind: "text"; text: string } | { kind: "tool_call"; name: string; arguments: string };

// ---------------------------------------------------------------- counting

/** Characters, not tokens: deliberately unlike any real tokenizer the app may use. */
export function countText(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Text of a message's content, whether a plain string or an array of parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
      .join("");
  }
  return "";
}

export function offeredTools(body: Pick<CompletionBody, "tools">): ToolShape[] {
  return Array.isArray(body.tools) ? body.tools : [];
}

export function promptTokens(body: Pick<CompletionBody, "messages" | "tools">): number {
  let total = 3;
  for (const message of body.messages) {
    total += 4 + countText(textOf(message.content));
    if (message.tool_calls != null) total += countText(JSON.stringify(message.tool_calls));
  }
  const tools = offeredTools(body);
  if (tools.length > 0) total += countText(JSON.stringify(tools));
  return total;
}

export function completionTokens(reply: ChatReply | Reply): number {
  if ("kind" in reply && reply.kind === "tool_call") return countText(reply.name + reply.arguments);
  return countText((reply as { text: string }).text);
}

export function maxTokensOf(body: Pick<CompletionBody, "max_tokens" | "max_completion_tokens">): number | undefined {
  const value = body.max_completion_tokens ?? body.max_tokens;
  return typeof value === "number" && value > 0 ? value : undefined;
}

// ---------------------------------------------------------------- classifying

const SUMMARY_CUE = /summar|condens|compress|merge|digest/i;

/** A summary request offers no tools and opens with a system message asking for one. */
export function classify(body: Pick<CompletionBody, "messages" | "tools">): "chat" | "summary" {
  const first = body.messages[0];
  if (offeredTools(body).length > 0 || !first || first.role !== "system") return "chat";
  return SUMMARY_CUE.test(textOf(first.content)) ? "summary" : "chat";
}

export function wantsJson(body: Pick<CompletionBody, "response_format">): boolean {
  return body.response_format?.type === "json_object";
}

/** Everything the summary is about: the non-system messages, one after another. */
export function materialOf(messages: Message[]): string {
  return messages
    .filter((message) => message.role !== "system")
    .map((message) => textOf(message.content))
    .join("\n");
}

// ---------------------------------------------------------------- sentences

export function splitSentences(text: string): string[] {
  return text
    .split(/\r?\n/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

/** Labels such as `[user #3]:` or `[Summary of messages 1–20 (level 1)]` say who, not what. */
export function withoutBrackets(sentence: string): string {
  // The colon goes too, or it would pose as the sentence's first word.
  return sentence.replace(/\[[^\]]*\]:?/g, " ");
}

export function stripLabel(sentence: string): string {
  return sentence.replace(/^(?:\s*\[[^\]]*\]:?)+\s*/, "").trim();
}

export function hasFact(sentence: string): boolean {
  const scored = withoutBrackets(sentence);
  return /\d/.test(scored) || /\bFACT\b/.test(scored);
}

export function isSalient(sentence: string): boolean {
  if (hasFact(sentence)) return true;
  const words = withoutBrackets(sentence).trim().split(/\s+/);
  // A name or other proper noun mid-sentence is what a summary must keep.
  return words.slice(1).some((word) => /^[^\p{L}\p{N}]*\p{Lu}/u.test(word));
}

/** Sentences as they appear in the output: labels stripped, duplicates and empties dropped. */
function outputSentences(material: string, keep: (sentence: string) => boolean): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const sentence of splitSentences(material)) {
    if (!keep(sentence)) continue;
    const shown = stripLabel(sentence);
    if (!shown || seen.has(shown)) continue;
    seen.add(shown);
    result.push(shown);
  }
  return result;
}

// ---------------------------------------------------------------- randomness

/** mulberry32: tiny, seedable, good enough to vary behaviour reproducibly. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, to seed a PRNG from text. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function randomInt(rng: () => number, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

// ---------------------------------------------------------------- summaries

function capped(text: string, maxTokens: number | undefined): Reply {
  if (maxTokens === undefined || text.length <= maxTokens * 4) return { text, finishReason: "stop" };
  return { text: text.slice(0, maxTokens * 4), finishReason: "length" };
}

/** Always truncates, and ends mid-word where the text allows it. */
function cutMidWord(text: string, maxTokens: number | undefined): Reply {
  let limit = maxTokens !== undefined && maxTokens * 4 < text.length ? maxTokens * 4 : Math.floor((text.length * 2) / 3);
  const isSpace = (char: string | undefined) => char === undefined || /\s/.test(char);
  while (limit > 1 && (isSpace(text[limit - 1]) || isSpace(text[limit]))) limit--;
  return { text: text.slice(0, limit), finishReason: "length" };
}

export function resolveMode(mode: SummaryMode, rng: () => number): Exclude<SummaryMode, "mixed"> {
  if (mode !== "mixed") return mode;
  return MIXED_CHOICES[Math.floor(rng() * MIXED_CHOICES.length)] ?? "extractive";
}

function jsonSummary(facts: string[]): string {
  return JSON.stringify({ goals: [], decisions: [], completed: [], openItems: [], facts });
}

function verboseText(all: string[]): string {
  return `Detailed summary:\n${all.join("\n")}\nIn conclusion, the conversation covered all of the above.`;
}

/**
 * What the outside model answers to a summary request. `rng` only matters for `mixed`;
 * without one the choice is seeded by the material, so the function stays pure.
 */
export function summarize(material: string, mode: SummaryMode, maxTokens: number | undefined, json: boolean, rng?: () => number): Reply {
  const resolved = resolveMode(mode, rng ?? mulberry32(hashText(material)));
  const salient = outputSentences(material, isSalient);
  const facts = outputSentences(material, hasFact);
  const all = outputSentences(material, () => true);
  const nonFacts = salient.filter((sentence) => !hasFact(sentence));

  switch (resolved) {
    case "empty":
      return { text: "", finishReason: "stop" };
    case "verbose":
      return { text: json ? jsonSummary(all) : verboseText(all), finishReason: "stop" };
    case "cut":
      return cutMidWord(json ? jsonSummary(all) : verboseText(all), maxTokens);
    case "terse": {
      if (json) return capped(jsonSummary(facts), maxTokens);
      const lines = material.split(/\r?\n/).filter((line) => line.trim()).length;
      return capped([`Summary of ${lines} earlier lines.`, ...facts].join("\n"), maxTokens);
    }
    case "foreign": {
      const points = salient.map((sentence) => `要点：${sentence}`);
      return capped(json ? jsonSummary(points) : ["对话摘要：", ...points].join("\n"), maxTokens);
    }
    case "drop_facts":
      if (json) return capped(jsonSummary(nonFacts), maxTokens);
      return capped(nonFacts.length ? `Summary: ${nonFacts.join("\n")}` : "Summary: the conversation continued.", maxTokens);
    case "prose":
      if (json) return capped(`Here is a summary of the conversation: ${salient.join(" ")}`, maxTokens);
      return capped(`Summary: ${salient.join("\n")}`, maxTokens);
    case "extractive":
      return capped(json ? jsonSummary(salient) : `Summary: ${salient.join("\n")}`, maxTokens);
  }
}

// ---------------------------------------------------------------- chat

const FILLER = ["alpha", "bravo", "river", "stone", "maple", "cloud", "ember", "quiet", "lantern", "meadow", "copper", "willow", "harbor", "thistle", "amber", "north"];

/** Exactly `tokens` of the model's own tokens (4 characters each) of lowercase words. */
export function filler(tokens: number, seedText: string): string {
  const rng = mulberry32(hashText(seedText));
  const length = tokens * 4;
  let text = "";
  while (text.length < length) text += `${FILLER[Math.floor(rng() * FILLER.length)]} `;
  text = text.slice(0, length);
  // A trailing space would vanish in most displays and change the count when trimmed.
  return text.endsWith(" ") ? `${text.slice(0, -1)}s` : text;
}

function lastUserText(messages: Message[]): string {
  const last = messages.findLast((message) => message.role === "user");
  return last ? textOf(last.content) : "";
}

function recall(messages: Message[], word: string): string {
  const seen = new Set<string>();
  for (const message of messages) {
    for (const sentence of splitSentences(textOf(message.content))) {
      if (sentence.includes("<<recall") || !sentence.includes(word)) continue;
      seen.add(stripLabel(sentence));
    }
  }
  seen.delete("");
  return seen.size ? [...seen].join(" | ") : "NOT FOUND";
}

export function chatReply(body: Pick<CompletionBody, "messages" | "tools">): ChatReply {
  const { messages } = body;
  const last = messages.at(-1);
  if (last?.role === "tool") return { kind: "text", text: `Tool said: ${textOf(last.content).slice(0, 200)}` };

  const user = lastUserText(messages);
  const tool = /<<tool\s+([\w.-]+)\s+(\{[\s\S]*\})\s*>>/.exec(user);
  if (tool && offeredTools(body).some((offered) => offered.function?.name === tool[1])) {
    return { kind: "tool_call", name: tool[1]!, arguments: tool[2]! };
  }
  const reply = /<<reply\s+(\d+)\s*>>/.exec(user);
  if (reply) return { kind: "text", text: filler(Number(reply[1]), user) };
  const recallWord = /<<recall\s+([^\s>]+)\s*>>/.exec(user);
  if (recallWord) return { kind: "text", text: recall(messages, recallWord[1]!) };

  const words = user.trim().split(/\s+/).filter(Boolean).slice(0, 12);
  return { kind: "text", text: `Noted: ${words.join(" ")}.` };
}

// ---------------------------------------------------------------- streaming

/** Content pieces of 1–9 code points, so multi-byte characters are never split. */
export function contentPieces(text: string, rng: () => number): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; ) {
    const size = randomInt(rng, 1, 9);
    pieces.push(chars.slice(i, i + size).join(""));
    i += size;
  }
  return pieces.length ? pieces : [""];
}

/** Tool arguments: the first 3 characters ride with the name, the rest in 2–5 character pieces. */
export function argumentPieces(args: string, rng: () => number): string[] {
  const pieces = [args.slice(0, 3)];
  for (let i = 3; i < args.length; ) {
    let size = randomInt(rng, 2, 5);
    // Never leave a 1-character tail: the last piece keeps to 2–5 as well.
    if (args.length - i - size === 1) size += size < 5 ? 1 : -1;
    pieces.push(args.slice(i, i + size));
    i += size;
  }
  return pieces;
}

export function contextLengthMessage(window: number, prompt: number): string {
  return `This model's maximum context length is ${window} tokens. However, your messages resulted in ${prompt} tokens.`;
}
