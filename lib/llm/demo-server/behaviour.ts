// The deterministic "model" behind the test server: pure functions from a request
// to a reply. The rules are documented in ./index.ts (top comment block); keep the
// two in sync — tests, E2E specs and benchmarks depend on them.

import type { ChatMessage } from "../../compression/types";
import { seededRandom } from "../../random";

export type SummaryKind = "summary" | "structured" | "digest";
export type RequestKind = "chat" | "summary";

/** A tool the request offers (only the name matters to the demo model). */
export type OfferedTool = { type?: string; function?: { name?: string } };

export type Reply =
  | { type: "text"; content: string }
  | { type: "tool_call"; name: string; arguments: string };

const TAG_RE = /\[strata:(summary|structured|digest)\]/;

function firstSystemMessage(messages: readonly ChatMessage[]): string | undefined {
  const first = messages.find((m) => m.role === "system");
  return first ? first.content : undefined;
}

/** The last message, when it is a user message whose first line starts with a `[strata:` tag (a request that reuses a chat's prefix). */
function trailingInstruction(messages: readonly ChatMessage[]): string | undefined {
  const last = messages.at(-1);
  return last?.role === "user" && last.content.trimStart().startsWith("[strata:") ? last.content : undefined;
}

/** "summary" when the FIRST system message or the trailing user message carries a `[strata:` tag (fault targeting uses this too). */
export function requestKind(messages: readonly ChatMessage[]): RequestKind {
  if (trailingInstruction(messages) !== undefined) return "summary";
  const system = firstSystemMessage(messages);
  return system !== undefined && system.includes("[strata:") ? "summary" : "chat";
}

/** The tag on the first line of the tagged message; an unknown `[strata:*]` tag behaves like summary. */
export function summaryKind(messages: readonly ChatMessage[]): SummaryKind | undefined {
  if (requestKind(messages) !== "summary") return undefined;
  const firstLine = (trailingInstruction(messages) ?? firstSystemMessage(messages) ?? "").split("\n", 1)[0] ?? "";
  const match = TAG_RE.exec(firstLine);
  return (match?.[1] as SummaryKind | undefined) ?? "summary";
}

const SPAN_RE = /the (\d+) (?:messages|summaries) above that end (?:(\d+) messages? before this one|right before this one)/i;

/**
 * What a summary request asks about. A trailing instruction counts its material back
 * from itself ("the N messages above that end M messages before this one"): the rest of
 * the request is the conversation around it. Otherwise the whole request.
 */
export function summaryMaterial(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  const instruction = trailingInstruction(messages);
  if (instruction === undefined) return messages;
  const before = messages.slice(0, -1);
  const match = SPAN_RE.exec(instruction);
  if (!match) return before;
  const end = before.length - Number(match[2] ?? 0);
  return before.slice(Math.max(0, end - Number(match[1])), Math.max(0, end));
}

// A FACT line is what lib/compression/facts.ts calls one: from "FACT key=value" to the
// end of its line, trimmed ("FACT name=John Smith." stays whole), wherever on the line
// it starts (the engine's transcript puts "[user #3]: " in front). Emitting the same
// text the engine extracts lets its fact check find every line in our summaries.
const FACT_START_RE = /FACT [^\s=]+=\S/;
// For RECALL: key without "=" or spaces, value up to the next whitespace, trailing
// punctuation dropped, so "FACT color=blue." and our digest's "FACT color=blue;" both
// recall as "blue".
const FACT_RE = /FACT ([^\s=]+)=(\S+)/g;
const TRAILING_PUNCT_RE = /[.,;:!?)\]}"'`*]+$/;

export type Fact = { key: string; value: string };

/** FACT lines of `text` in order (one per text line at most). */
export function factLinesIn(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = FACT_START_RE.exec(line);
    if (match) lines.push(line.slice(match.index).trim());
  }
  return lines;
}

/** Every `FACT key=value` pair in `text`, in order. */
export function factsIn(text: string): Fact[] {
  const facts: Fact[] = [];
  for (const match of text.matchAll(FACT_RE)) {
    const key = match[1] ?? "";
    const value = (match[2] ?? "").replace(TRAILING_PUNCT_RE, "");
    if (key && value) facts.push({ key, value });
  }
  return facts;
}

/** Tool-call arguments are JSON: read their strings, so an escaped "\n" still ends a line. */
function argumentText(args: string): string {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  try {
    walk(JSON.parse(args));
    return strings.join("\n");
  } catch {
    return args;
  }
}

function messageText(message: ChatMessage): string {
  let text = message.content ?? "";
  if (message.role === "assistant" && message.tool_calls) {
    for (const call of message.tool_calls) text += `\n${argumentText(call.function.arguments)}`;
  }
  return text;
}

/** FACT lines of all messages, deduplicated, in order of first appearance. */
export function factLines(messages: readonly ChatMessage[]): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const message of messages) {
    for (const line of factLinesIn(messageText(message))) {
      if (seen.has(line)) continue;
      seen.add(line);
      lines.push(line);
    }
  }
  return lines;
}

/** Value of the LAST `FACT key=...` anywhere in the messages. */
export function recallFact(messages: readonly ChatMessage[], key: string): string | undefined {
  let value: string | undefined;
  for (const message of messages) {
    for (const fact of factsIn(messageText(message))) if (fact.key === key) value = fact.value;
  }
  return value;
}

function lastUserContent(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "user") return message.content;
  }
  return "";
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A short one-line quote of user text. "FACT " is lower-cased so quotes never create
 * fact lines: cutting "FACT color=blue" at a limit would plant a false "color=bl" in
 * the next summary level, and echoes would repeat facts with junk after them.
 */
function quote(text: string, maxChars = Number.POSITIVE_INFINITY): string {
  return oneLine(text.replace(/FACT /g, "fact ")).slice(0, maxChars).trim();
}

/** FNV-1a: a stable 32-bit seed from text. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const LOREM = (
  "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore " +
  "magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo " +
  "consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint " +
  "occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum"
).split(" ");

/** Caps REPLY_WORDS so a typo can't make the server build a gigabyte string. */
export const MAX_REPLY_WORDS = 50_000;

/** Exactly `n` lorem-like words separated by single spaces, seeded by `seedText`. */
export function loremWords(n: number, seedText: string): string {
  const next = seededRandom(hash32(seedText));
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(LOREM[Math.floor(next() * LOREM.length)] ?? "lorem");
  return words.join(" ");
}

// Transcript lines as the engine formats them for a summary prompt ("[user #12]: …").
const TRANSCRIPT_LINE = /^\[(user|assistant|tool result|system note) #\d+[^\]]*\]: ?(.*)$/gm;

/**
 * One line describing what was summarized. For a summary prompt it counts the
 * transcript lines inside it (a realistic digest for the demo); for anything else,
 * the request's own messages.
 */
function digestLine(messages: readonly ChatMessage[]): string {
  const counts = { user: 0, assistant: 0, tool: 0 };
  let lastUser = "";
  for (const message of messages) {
    for (const [, role, text] of (message.content ?? "").matchAll(TRANSCRIPT_LINE)) {
      if (role === "user") {
        counts.user++;
        lastUser = text ?? "";
      } else if (role === "assistant") counts.assistant++;
      else if (role === "tool result") counts.tool++;
    }
  }
  let total = counts.user + counts.assistant + counts.tool;
  if (total === 0) {
    for (const message of messages) if (message.role !== "system") counts[message.role]++;
    total = messages.length;
    lastUser = lastUserContent(messages);
  }
  const last = quote(lastUser, 60);
  return (
    `Digest: ${total} messages (${counts.user} user, ${counts.assistant} assistant, ${counts.tool} tool)` +
    (last ? `; last user message: "${last}"` : "") +
    "."
  );
}

/** "Summary of the conversation so far." + FACT lines + one digest line. */
export function summaryText(messages: readonly ChatMessage[]): string {
  return ["Summary of the conversation so far.", ...factLines(messages), digestLine(messages)].join("\n");
}

/** The three summary kinds. */
export function summaryReply(kind: SummaryKind, messages: readonly ChatMessage[]): string {
  if (kind === "structured") {
    const firstUser = messages.find((m) => m.role === "user");
    const goal = firstUser ? quote(firstUser.content, 80) : "";
    return JSON.stringify({
      goals: goal ? [goal] : [],
      decisions: [],
      completed: [],
      openItems: [],
      facts: factLines(messages),
    });
  }
  if (kind === "digest") {
    const facts = factLines(messages);
    return facts.length > 0 ? facts.join("; ") : oneLine(lastUserContent(messages)).slice(0, 80);
  }
  return summaryText(messages);
}

function offers(tools: readonly OfferedTool[] | undefined, name: string): boolean {
  return (tools ?? []).some((tool) => tool.function?.name === name);
}

/** An offered tool whose name ends with `__<tool>` (a tool server's tool, whatever the server is called). */
function offeredServerTool(tools: readonly OfferedTool[] | undefined, tool: string): string | undefined {
  return (tools ?? []).map((offered) => offered.function?.name ?? "").find((name) => name.endsWith(`__${tool}`));
}

const LIST_FILES_RE = /\blist (?:the |my |all )?files\b/i;
const READ_FILE_RE = /\b(?:read|open|show)\s+(?:the file\s+)?[`"']?([\w./-]+\.[A-Za-z0-9]+)/i;
const MEMORY_RE = /\bwhat do you remember\b/i;

/** The demo's use of tool servers: list the files, read a file, recall the memory graph. */
function fileToolCall(user: string, tools: readonly OfferedTool[] | undefined): Reply | undefined {
  const list = LIST_FILES_RE.test(user) ? offeredServerTool(tools, "list_directory") : undefined;
  if (list) return { type: "tool_call", name: list, arguments: JSON.stringify({ path: "." }) };
  const file = READ_FILE_RE.exec(user)?.[1];
  const read = file ? offeredServerTool(tools, "read_text_file") : undefined;
  if (read) return { type: "tool_call", name: read, arguments: JSON.stringify({ path: file }) };
  const graph = MEMORY_RE.test(user) ? offeredServerTool(tools, "read_graph") : undefined;
  if (graph) return { type: "tool_call", name: graph, arguments: "{}" };
  return undefined;
}

const RECALL_RE = /RECALL ([^\s?]+)\?/g;
const REPLY_WORDS_RE = /REPLY_WORDS=(\d+)/;
const TIME_RE = /what time is it|(^|\s)\/time\b/i;

/** The queries of the search_history calls made since the user's last message. */
function searchedThisTurn(messages: readonly ChatMessage[]): Set<string> {
  const searched = new Set<string>();
  let at = messages.length - 1;
  while (at >= 0 && messages[at]!.role !== "user") at--;
  for (const message of messages.slice(at + 1)) {
    if (message.role !== "assistant" || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      if (call.function.name !== "search_history") continue;
      try {
        const query = (JSON.parse(call.function.arguments) as { query?: unknown }).query;
        if (typeof query === "string") searched.add(query);
      } catch {
        // A call the demo model did not write; nothing to learn from it.
      }
    }
  }
  return searched;
}

/**
 * RECALL answers from what the request shows; a key it cannot see is looked up with
 * search_history when offered (once per key and turn), then answered from the results.
 */
function recallReply(messages: readonly ChatMessage[], keys: string[], tools: readonly OfferedTool[] | undefined): Reply {
  const values = keys.map((key) => ({ key, value: recallFact(messages, key) }));
  if (offers(tools, "search_history")) {
    const searched = searchedThisTurn(messages);
    const missing = values.find(({ key, value }) => value === undefined && !searched.has(key));
    if (missing) return { type: "tool_call", name: "search_history", arguments: JSON.stringify({ query: missing.key }) };
  }
  return { type: "text", content: values.map(({ key, value }) => `${key}=${value ?? "UNKNOWN"}`).join("\n") };
}

/** The demo chat model. Rules are applied in this order; the first that matches wins. */
export function chatReply(messages: readonly ChatMessage[], tools?: readonly OfferedTool[]): Reply {
  const last = messages[messages.length - 1];
  const user = lastUserContent(messages);
  const keys = [...user.matchAll(RECALL_RE)].map((m) => m[1] ?? "").filter(Boolean);
  if (last?.role === "tool") {
    return keys.length > 0 && searchedThisTurn(messages).size > 0 ? recallReply(messages, keys, tools) : { type: "text", content: `The tool returned: ${last.content}` };
  }

  if (user.includes("COMPRESS_CONTEXT") && offers(tools, "compress_context")) {
    const summary = ["Summary of the conversation so far.", ...factLines(messages)].join("\n");
    return { type: "tool_call", name: "compress_context", arguments: JSON.stringify({ summary }) };
  }
  const files = fileToolCall(user, tools);
  if (files) return files;
  if (TIME_RE.test(user) && offers(tools, "current_time")) {
    return { type: "tool_call", name: "current_time", arguments: "{}" };
  }
  if (keys.length > 0) return recallReply(messages, keys, tools);
  const words = REPLY_WORDS_RE.exec(user);
  if (words) {
    const n = Math.min(Number(words[1]), MAX_REPLY_WORDS);
    return { type: "text", content: loremWords(n, user) };
  }
  return { type: "text", content: echoReply(messages, user) };
}

/** A friendly Markdown echo, at most 120 words. */
function echoReply(messages: readonly ChatMessage[], user: string): string {
  const said = quote(user).split(" ").filter(Boolean);
  const quoted = said.length > 40 ? `${said.slice(0, 40).join(" ")} …` : said.join(" ");
  const facts = factLines(messages).length;
  const lines = [
    `**Demo model** — you said: “${quoted || "(nothing)"}”`,
    "",
    `- Your message: ${said.length} word${said.length === 1 ? "" : "s"}`,
    `- Messages in my context: ${messages.length}`,
    `- Facts I can see: ${facts}`,
    "",
    "_This is Strata's offline demo model. Set OPENAI_API_KEY to talk to a real one._",
  ];
  return lines.join("\n");
}
