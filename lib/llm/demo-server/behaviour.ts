// The offline demo model: pure functions from a request to a reply. The rules are
// documented in ./index.ts (top comment block); keep the two in sync.

import type { ChatMessage } from "../../compression/types";

export type SummaryKind = "summary" | "structured" | "digest";
export type RequestKind = "chat" | "summary";

/** A tool the request offers (only the name matters to the demo model). */
export type OfferedTool = { type?: string | undefined; function?: { name?: string | undefined } | undefined };

export type Reply =
  | { type: "text"; content: string }
  | { type: "tool_call"; name: string; arguments: string };

/** What the demo model is given: the messages, the tools offered, and whether JSON was asked for (response_format). */
export type DemoRequest = { messages: readonly ChatMessage[]; tools?: readonly OfferedTool[] | undefined; json?: boolean | undefined };

// A request that reuses a chat's prefix ends with a user message asking for a summary of
// a span it counts back from itself ("Summarize the 12 messages above that end 3 messages
// before this one …", "Merge the 2 summaries above …").
const TRAILING_RE = /^(?:summarize|merge) the \d+ (?:messages|summaries) above that end\b/i;
// A stand-alone summary request: a system message that asks to condense, then the material.
const ASKS_TO_CONDENSE = /\b(?:summar|condens|compress|merge|digest)/i;
// A digest asks for one line; a summary's title instruction ("Start your reply with one line") does not count.
const ONE_LINE = /\binto one line\b|\bsingle line\b/i;

/** The last message, when it is a user message whose first line asks for a summary of the messages above it. */
function trailingInstruction(messages: readonly ChatMessage[]): string | undefined {
  const last = messages.at(-1);
  if (last?.role !== "user") return undefined;
  const firstLine = last.content.trimStart().split("\n", 1)[0] ?? "";
  return TRAILING_RE.test(firstLine) ? last.content : undefined;
}

/**
 * The instruction of a stand-alone summary request: exactly a system message that asks
 * to condense and one user message with the material, no tools offered (a chat turn
 * offers the app's tools; a stand-alone summary has nothing to call).
 */
function standaloneInstruction(request: DemoRequest): string | undefined {
  const [system, material, ...rest] = request.messages;
  if ((request.tools?.length ?? 0) > 0 || rest.length > 0) return undefined;
  if (system?.role !== "system" || material?.role !== "user") return undefined;
  return ASKS_TO_CONDENSE.test(system.content) ? system.content : undefined;
}

function summaryInstruction(request: DemoRequest): string | undefined {
  return trailingInstruction(request.messages) ?? standaloneInstruction(request);
}

/** "summary" when the request asks for a summary, read the way a model reads it (fault targeting uses this too). */
export function requestKind(request: DemoRequest): RequestKind {
  return summaryInstruction(request) === undefined ? "chat" : "summary";
}

/** Which summary the instruction asks for: JSON (response_format) → structured, one line → digest, else prose. */
export function summaryKind(request: DemoRequest): SummaryKind | undefined {
  const instruction = summaryInstruction(request);
  if (instruction === undefined) return undefined;
  if (request.json) return "structured";
  return ONE_LINE.test(instruction) ? "digest" : "summary";
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

/** FACT lines of `text` in order (one per text line at most). */
export function factLinesIn(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = FACT_START_RE.exec(line);
    if (match) lines.push(line.slice(match.index).trim());
  }
  return lines;
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

/** A message as the model reads it: its content, and the strings of its tool calls' arguments. */
export function messageText(message: ChatMessage): string {
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

const TIME_RE = /what time is it|(^|\s)\/time\b/i;

/** The demo chat model. Rules are applied in this order; the first that matches wins. */
export function chatReply(messages: readonly ChatMessage[], tools?: readonly OfferedTool[]): Reply {
  const last = messages[messages.length - 1];
  if (last?.role === "tool") return { type: "text", content: `The tool returned: ${last.content}` };
  const user = lastUserContent(messages);
  const files = fileToolCall(user, tools);
  if (files) return files;
  if (TIME_RE.test(user) && offers(tools, "current_time")) {
    return { type: "tool_call", name: "current_time", arguments: "{}" };
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
