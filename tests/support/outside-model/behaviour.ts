// The outside model's rules, as pure functions. Nothing here may come from the app
// (see README.md): the point is a second, independently written opinion on what a
// model says, so the app's own assumptions cannot leak into the checks.

export const SUMMARY_MODES = ["extractive", "terse", "verbose", "cut", "empty", "foreign", "drop_facts", "lossy", "half_facts", "prose", "mixed"] as const;
export type SummaryMode = (typeof SUMMARY_MODES)[number];
/** The modes `mixed` chooses from. */
export const MIXED_CHOICES = ["extractive", "terse", "verbose", "cut", "drop_facts"] as const satisfies readonly SummaryMode[];

export type ToolCallShape = { id?: string; type?: string; function?: { name?: string; arguments?: string } };
export type Message = { role: string; content?: unknown; tool_calls?: ToolCallShape[]; tool_call_id?: string; name?: string };
export type ToolShape = { type?: string; function?: { name?: string; description?: string; parameters?: unknown } };
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
/** Whether the summarizer writes the title line a request asks for, or ignores the request. */
export const TITLE_MODES = ["follow", "ignore"] as const;
export type TitleMode = (typeof TITLE_MODES)[number];
/**
 * How summaries cite (when asked to): `exact` puts the number of the labelled message a
 * sentence came from after it, `(#N)`; `wild` adds numbers that are nowhere in the material.
 */
export const CITE_MODES = ["exact", "wild"] as const;
export type CiteMode = (typeof CITE_MODES)[number];
/** Share of the sentences `lossy` leaves out of every summary. */
export const LOSSY_DROP_RATE = 0.1;
/** Share of the fact sentences (a digit or FACT) `half_facts` leaves out of every summary. */
export const HALF_FACTS_DROP_RATE = 0.5;
/**
 * How the model treats tools on chat turns: `directed` calls one only when the user's
 * message says `<<tool NAME {json}>>`; `search` also looks a `<<recall WORD>>` up with an
 * offered search tool when WORD is nowhere in its request; `ignore` never calls a tool.
 */
export const CHAT_MODES = ["directed", "search", "ignore"] as const;
export type ChatMode = (typeof CHAT_MODES)[number];
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

const SPAN = /the (\d+) (?:messages|summaries) above that end (?:(\d+) messages? before this one|right before this one)/i;

/**
 * The last message, when it asks for a summary of what came before it (a request that
 * reuses a chat's prefix): a user or system message whose first lines, after an optional
 * bracketed tag, start with "Summarize" or "Merge" and count the span back from
 * themselves ("the N messages above that end M messages before this one"). A user who
 * asks a chat to "summarize the article" names no such span.
 */
export function trailingInstruction(messages: Message[]): string | undefined {
  const last = messages.at(-1);
  if (!last || (last.role !== "user" && last.role !== "system")) return undefined;
  const text = textOf(last.content);
  // The tag may stand on a line of its own, the request on the next.
  const opening = text.split(/\r?\n/).filter((line) => line.trim()).slice(0, 2).join(" ");
  return /^\s*(?:\[[^\]]*\]\s*)?(?:summari[sz]e|merge)\b/i.test(opening) && SPAN.test(opening) ? text : undefined;
}

/**
 * A summary request either ends with a message asking for one (tools offered or not), or
 * offers no tools and opens with a system message asking for one.
 */
export function classify(body: Pick<CompletionBody, "messages" | "tools">): "chat" | "summary" {
  if (trailingInstruction(body.messages) !== undefined) return "summary";
  const first = body.messages[0];
  if (offeredTools(body).length > 0 || !first || first.role !== "system") return "chat";
  return SUMMARY_CUE.test(textOf(first.content)) ? "summary" : "chat";
}

/** A summary request asks for a title when its first system message, or its trailing instruction, says the word. */
export function asksForTitle(messages: Message[]): boolean {
  const instruction = trailingInstruction(messages);
  if (instruction !== undefined) return /\btitle\b/i.test(instruction);
  const first = messages[0];
  return first?.role === "system" && /\btitle\b/i.test(textOf(first.content));
}

/** The messages a trailing instruction counts back from itself: the N that end M messages before it. */
function instructedSpan(messages: Message[], instruction: string): Message[] {
  const before = messages.slice(0, -1);
  const match = SPAN.exec(instruction)!;
  const count = Number(match[1]);
  const end = before.length - Number(match[2] ?? 0);
  return before.slice(Math.max(0, end - count), Math.max(0, end));
}

export function wantsJson(body: Pick<CompletionBody, "response_format">): boolean {
  return body.response_format?.type === "json_object";
}

/**
 * Everything the summary is about: the messages a trailing instruction names (summaries
 * among them), or else the non-system messages, one after another.
 */
export function materialOf(messages: Message[]): string {
  const instruction = trailingInstruction(messages);
  if (instruction !== undefined) return instructedSpan(messages, instruction).map((message) => textOf(message.content)).join("\n");
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

// ---------------------------------------------------------------- citing

/** The message number of a line's leading label (`[user #3]:`, `[tool result #4 x]:`); null for a label without one. */
function labelNumber(line: string): number | null | undefined {
  const label = /^\s*\[([^\]]*)\]/.exec(line);
  if (!label) return undefined;
  const number = /#(\d+)/.exec(label[1]!);
  return number ? Number(number[1]) : null;
}

/** Every sentence of the material with the number of the labelled message it belongs to (a label holds until an empty line or another label). */
function numberedSentences(material: string): { sentence: string; seq: number | null }[] {
  const result: { sentence: string; seq: number | null }[] = [];
  let current: number | null = null;
  for (const line of material.split(/\r?\n/)) {
    if (!line.trim()) current = null;
    const label = labelNumber(line);
    if (label !== undefined) current = label;
    for (const sentence of splitSentences(line)) result.push({ sentence, seq: current });
  }
  return result;
}

/** The cite goes before the sentence's closing punctuation, where a sentence splitter keeps it. */
function withCite(sentence: string, cite: string): string {
  const match = /^([\s\S]*?)([.!?]*)$/.exec(sentence)!;
  return `${match[1]!.trimEnd()} ${cite}${match[2]}`;
}

/** What `wild` adds: a number past every label of the material, alone, in a list, or as a range's end. */
function wildCite(seq: number | null, highest: number, index: number): string {
  const outside = highest + 1 + (index % 5) * 3;
  if (seq === null) return `(#${outside})`;
  switch (index % 3) {
    case 0:
      return `(#${seq}) (#${outside})`;
    case 1:
      return `(#${seq}, #${outside})`;
    default:
      return `(#${seq}–#${outside})`;
  }
}

/** Sentences as they appear in the output: labels stripped, duplicates and empties dropped; cited if asked. */
function outputSentences(material: string, keep: (sentence: string) => boolean, cite?: CiteMode): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  const numbered = numberedSentences(material);
  const highest = Math.max(0, ...numbered.map((entry) => entry.seq ?? 0));
  for (const { sentence, seq } of numbered) {
    if (!keep(sentence)) continue;
    const shown = stripLabel(sentence);
    if (!shown || seen.has(shown)) continue;
    seen.add(shown);
    // A sentence that cites already (copied from an earlier summary) keeps its own cite.
    if (cite === "exact" && /\(#\d/.test(shown)) result.push(shown);
    else if (cite === "wild") result.push(withCite(shown, wildCite(seq, highest, result.length)));
    else if (cite === "exact" && seq !== null) result.push(withCite(shown, `(#${seq})`));
    else result.push(shown);
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

function jsonSummary(facts: string[], title?: string): string {
  return JSON.stringify({ ...(title ? { title } : {}), goals: [], decisions: [], completed: [], openItems: [], facts });
}

function verboseText(all: string[]): string {
  return `Detailed summary:\n${all.join("\n")}\nIn conclusion, the conversation covered all of the above.`;
}

/** The outside model's idea of a title: the first words of the first salient sentence. */
export function titleOf(material: string): string {
  const first = outputSentences(material, isSalient)[0];
  if (!first) return "Ongoing conversation";
  return first.split(/\s+/).slice(0, 8).join(" ").replace(/[.!?,;:]+$/, "");
}

export type SummarizeOptions = { title?: boolean; cite?: CiteMode };

/**
 * What the outside model answers to a summary request. `rng` only matters for `mixed`
 * and `lossy`; without one the choice is seeded by the material, so the function stays
 * pure. With `title`, the answer opens with a `Title: ` line (a JSON answer gets a
 * `title` field). With `cite`, each sentence taken from a labelled message ends in that
 * message's number, `(#N)`; `wild` adds numbers that are nowhere in the material.
 */
export function summarize(material: string, mode: SummaryMode, maxTokens: number | undefined, json: boolean, rng?: () => number, options: SummarizeOptions = {}): Reply {
  const random = rng ?? mulberry32(hashText(material));
  const resolved = resolveMode(mode, random);
  const title = options.title ? titleOf(material) : undefined;
  const titled = (text: string) => (title ? `Title: ${title}\n${text}` : text);
  const salient = outputSentences(material, isSalient, options.cite);
  const facts = outputSentences(material, hasFact, options.cite);
  const all = outputSentences(material, () => true, options.cite);
  // Judged before citing: a cite's number is not a fact.
  const nonFacts = outputSentences(material, (sentence) => isSalient(sentence) && !hasFact(sentence), options.cite);

  switch (resolved) {
    case "empty":
      return { text: "", finishReason: "stop" };
    case "verbose":
      return { text: json ? jsonSummary(all, title) : titled(verboseText(all)), finishReason: "stop" };
    case "cut":
      return cutMidWord(json ? jsonSummary(all, title) : titled(verboseText(all)), maxTokens);
    case "terse": {
      if (json) return capped(jsonSummary(facts, title), maxTokens);
      const lines = material.split(/\r?\n/).filter((line) => line.trim()).length;
      return capped(titled([`Summary of ${lines} earlier lines.`, ...facts].join("\n")), maxTokens);
    }
    case "foreign": {
      const points = salient.map((sentence) => `要点：${sentence}`);
      return capped(json ? jsonSummary(points, title) : titled(["对话摘要：", ...points].join("\n")), maxTokens);
    }
    case "drop_facts":
      if (json) return capped(jsonSummary(nonFacts, title), maxTokens);
      return capped(titled(nonFacts.length ? `Summary: ${nonFacts.join("\n")}` : "Summary: the conversation continued."), maxTokens);
    case "half_facts": {
      // Extractive, but each sentence with a fact survives a pass only by a coin toss.
      const kept = salient.filter((sentence) => !hasFact(sentence) || random() >= HALF_FACTS_DROP_RATE);
      return capped(json ? jsonSummary(kept, title) : titled(`Summary: ${kept.join("\n")}`), maxTokens);
    }
    case "lossy": {
      // Writes up everything it saw but loses some of it on every pass, as a model squeezing a long text does.
      const kept = all.filter(() => random() >= LOSSY_DROP_RATE);
      return capped(json ? jsonSummary(kept, title) : titled(`Summary: ${kept.join("\n")}`), maxTokens);
    }
    case "prose":
      if (json) return capped(`Here is a summary of the conversation: ${salient.join(" ")}`, maxTokens);
      return capped(titled(`Summary: ${salient.join("\n")}`), maxTokens);
    case "extractive":
      return capped(json ? jsonSummary(salient, title) : titled(`Summary: ${salient.join("\n")}`), maxTokens);
  }
}

// ---------------------------------------------------------------- prompt cache

/** OpenAI's rule: a prefix shared with an earlier request is served from the cache from 1,024 tokens on, in steps of 128. */
export const CACHE_MIN_TOKENS = 1024;
export const CACHE_STEP_TOKENS = 128;

type Piece = { key: string; text: string; tokens: number };

/** A request as a prefix cache reads it: the tool definitions first, then the messages in order. */
function cachePieces(body: Pick<CompletionBody, "messages" | "tools">): Piece[] {
  const pieces: Piece[] = [];
  const tools = offeredTools(body);
  if (tools.length > 0) {
    const text = JSON.stringify(tools);
    pieces.push({ key: "tools", text, tokens: countText(text) });
  }
  for (const message of body.messages) {
    const calls = message.tool_calls != null ? JSON.stringify(message.tool_calls) : "";
    const text = textOf(message.content);
    pieces.push({ key: `${message.role}|${message.tool_call_id ?? ""}|${calls}`, text, tokens: 4 + countText(text) + (calls ? countText(calls) : 0) });
  }
  return pieces;
}

/**
 * Prompt tokens of `current` a provider could serve from its cache after `previous`:
 * the shared prefix (whole pieces, then the shared start of the first piece that
 * differs), rounded down to the cache's steps, nothing under its minimum.
 */
export function cachedTokens(previous: Pick<CompletionBody, "messages" | "tools"> | undefined, current: Pick<CompletionBody, "messages" | "tools">): number {
  if (!previous) return 0;
  const before = cachePieces(previous);
  const now = cachePieces(current);
  let shared = 0;
  for (let index = 0; index < now.length && index < before.length; index++) {
    const a = before[index]!;
    const b = now[index]!;
    if (a.key === b.key && a.text === b.text) {
      shared += b.tokens;
      continue;
    }
    if (a.key === b.key) {
      let common = 0;
      while (common < a.text.length && common < b.text.length && a.text[common] === b.text[common]) common++;
      shared += Math.floor(common / 4);
    }
    break;
  }
  const cached = Math.floor(shared / CACHE_STEP_TOKENS) * CACHE_STEP_TOKENS;
  return cached >= CACHE_MIN_TOKENS ? Math.min(cached, promptTokens(current)) : 0;
}

/** The most a cache holding the prefixes of `previous` (the newest chat and summary requests) could serve of `current`. */
export function cachedAfter(previous: readonly (Pick<CompletionBody, "messages" | "tools"> | undefined)[], current: Pick<CompletionBody, "messages" | "tools">): number {
  return Math.max(0, ...previous.map((body) => cachedTokens(body, current)));
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

/** Sentences naming `word` as a whole word: "Falcon-1" is not named by "Falcon-10". */
function recall(messages: Message[], word: string): string {
  const named = new RegExp(`(?<![\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`);
  const seen = new Set<string>();
  for (const message of messages) {
    for (const sentence of splitSentences(textOf(message.content))) {
      if (sentence.includes("<<recall") || !named.test(sentence)) continue;
      seen.add(stripLabel(sentence));
    }
  }
  seen.delete("");
  return seen.size ? [...seen].join(" | ") : "NOT FOUND";
}

/** An offered tool whose name or description speaks of searching, and the name of its first required string parameter. */
export function searchTool(tools: readonly ToolShape[]): { name: string; parameter: string } | undefined {
  for (const tool of tools) {
    const name = tool.function?.name;
    if (!name || !/search/i.test(`${name} ${tool.function?.description ?? ""}`)) continue;
    const schema = (tool.function?.parameters ?? {}) as { properties?: Record<string, { type?: string }>; required?: string[] };
    const properties = schema.properties ?? {};
    const parameter = (schema.required ?? Object.keys(properties)).find((key) => properties[key]?.type === "string");
    if (parameter) return { name, parameter };
  }
  return undefined;
}

/** Messages after the last user message: this turn's tool calls and results. */
function sinceLastUser(messages: Message[]): Message[] {
  const at = messages.findLastIndex((message) => message.role === "user");
  return at < 0 ? [] : messages.slice(at + 1);
}

const RECALL_RE = /<<recall\s+([^\s>]+)\s*>>/;

export function chatReply(body: Pick<CompletionBody, "messages" | "tools">, mode: ChatMode = "directed"): ChatReply {
  const { messages } = body;
  const last = messages.at(-1);
  const user = lastUserText(messages);
  // Several directives in one message (a quoted earlier message before the question): the last one is the question's.
  const asked = user.slice(Math.max(0, user.lastIndexOf("<<")));
  const recallWord = RECALL_RE.exec(asked)?.[1];
  if (last?.role === "tool") {
    // A lookup this turn made: answered from what the tools returned, by the recall rule.
    if (recallWord && mode === "search") return { kind: "text", text: recall(sinceLastUser(messages).filter((m) => m.role === "tool"), recallWord) };
    return { kind: "text", text: `Tool said: ${textOf(last.content).slice(0, 200)}` };
  }

  const tool = /<<tool\s+([\w.-]+)\s+(\{[\s\S]*\})\s*>>/.exec(asked);
  if (mode !== "ignore" && tool && offeredTools(body).some((offered) => offered.function?.name === tool[1])) {
    return { kind: "tool_call", name: tool[1]!, arguments: tool[2]! };
  }
  const reply = /<<reply\s+(\d+)\s*>>/.exec(asked);
  if (reply) return { kind: "text", text: filler(Number(reply[1]), user) };
  if (recallWord) {
    const seen = recall(messages, recallWord);
    const search = mode === "search" && seen === "NOT FOUND" ? searchTool(offeredTools(body)) : undefined;
    if (search) return { kind: "tool_call", name: search.name, arguments: JSON.stringify({ [search.parameter]: recallWord }) };
    return { kind: "text", text: seen };
  }

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
