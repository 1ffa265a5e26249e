// The test model's own triggers: words in the last user message that only tests and
// benchmarks write, answered here so the demo model a user runs carries none of them.
// Anything without a trigger is the demo model's to answer (./index.ts forwards it).
//
//   1. last message is a tool result, the user text has RECALL keys and search_history was
//      called since it                  → rule 3 again (the results are in the request now)
//   2. user text has COMPRESS_CONTEXT and tools include compress_context
//                                        → tool call compress_context {"summary":"Summary of the conversation
//                                          so far.\n<FACT lines joined by \n>"}
//   3. user text has "RECALL key?" (one or more) → one line "key=value" per key, in order, joined by "\n";
//                                          value from the LAST "FACT key=value" anywhere in the request
//                                          (system summaries, tool results and tool-call arguments included),
//                                          else "key=UNKNOWN"; but a key it cannot see, with search_history
//                                          offered and not yet called for that key since the user text
//                                          → tool call search_history {"query":"<key>"} (one key per call)
//   4. user text has REPLY_WORDS=n       → exactly n lorem-like lowercase words separated by single
//                                          spaces, seeded by the user text (n capped at 50000)
//
// RECALL reads key/value pairs: value = the next non-space run, trailing .,;:!?)]}"'`* dropped,
// so "FACT color=blue." and a digest's "FACT color=blue;" both recall as "blue".
import type { ChatMessage } from "../../../lib/compression/types";
import { factLines, hash32, messageText, type OfferedTool, type Reply } from "../../../lib/llm/demo-server/behaviour";
import { seededRandom } from "../../../lib/random";

const FACT_RE = /FACT ([^\s=]+)=(\S+)/g;
const TRAILING_PUNCT_RE = /[.,;:!?)\]}"'`*]+$/;
const RECALL_RE = /RECALL ([^\s?]+)\?/g;
const REPLY_WORDS_RE = /REPLY_WORDS=(\d+)/;

export type Fact = { key: string; value: string };

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

/** Value of the LAST `FACT key=...` anywhere in the messages. */
export function recallFact(messages: readonly ChatMessage[], key: string): string | undefined {
  let value: string | undefined;
  for (const message of messages) {
    for (const fact of factsIn(messageText(message))) if (fact.key === key) value = fact.value;
  }
  return value;
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

function offers(tools: readonly OfferedTool[] | undefined, name: string): boolean {
  return (tools ?? []).some((tool) => tool.function?.name === name);
}

/** Where the last user message is, and its text. */
function lastUser(messages: readonly ChatMessage[]): { at: number; text: string } {
  for (let at = messages.length - 1; at >= 0; at--) {
    const message = messages[at]!;
    if (message.role === "user") return { at, text: message.content };
  }
  return { at: -1, text: "" };
}

/** The queries of the search_history calls made since the user's last message. */
function searchedThisTurn(messages: readonly ChatMessage[]): Set<string> {
  const searched = new Set<string>();
  for (const message of messages.slice(lastUser(messages).at + 1)) {
    if (message.role !== "assistant" || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      if (call.function.name !== "search_history") continue;
      try {
        const query = (JSON.parse(call.function.arguments) as { query?: unknown }).query;
        if (typeof query === "string") searched.add(query);
      } catch {
        // A call the test model did not write; nothing to learn from it.
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

/** The test model's reply to a chat request, when one of its triggers applies; otherwise undefined (the demo model answers). */
export function triggeredReply(messages: readonly ChatMessage[], tools?: readonly OfferedTool[]): Reply | undefined {
  const user = lastUser(messages).text;
  const keys = [...user.matchAll(RECALL_RE)].map((m) => m[1] ?? "").filter(Boolean);
  if (messages.at(-1)?.role === "tool") {
    return keys.length > 0 && searchedThisTurn(messages).size > 0 ? recallReply(messages, keys, tools) : undefined;
  }
  if (user.includes("COMPRESS_CONTEXT") && offers(tools, "compress_context")) {
    const summary = ["Summary of the conversation so far.", ...factLines(messages)].join("\n");
    return { type: "tool_call", name: "compress_context", arguments: JSON.stringify({ summary }) };
  }
  if (keys.length > 0) return recallReply(messages, keys, tools);
  const words = REPLY_WORDS_RE.exec(user);
  if (words) return { type: "text", content: loremWords(Math.min(Number(words[1]), MAX_REPLY_WORDS), user) };
  return undefined;
}
