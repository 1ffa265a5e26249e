// The recall acceptance run: a long conversation through the real turn (lib/chat,
// PostgreSQL) against the outside model, with plain-sentence facts planted along the
// way and a summarizer that loses half of the facts it reads; then every fact is asked
// for. The outside model answers a `<<recall WORD>>` from what its request holds, or —
// in its `search` chat mode — looks the word up with a search tool it is offered.
import { backgroundSettled } from "../../lib/chat/compressor";
import type { CompressionSettings } from "../../lib/compression/settings";
import type { Db } from "../../lib/db/client";
import { countText, mulberry32, textOf, type ChatMode, type Message } from "./outside-model/behaviour";
import type { OutsideModel } from "./outside-model/server";
import { newConversation, saveTestSettings, send } from "./harness";
import { chatter } from "./simulation";

export type RecallRunOptions = {
  window: number;
  turns: number;
  facts: number;
  chatMode: ChatMode;
  settings?: Partial<CompressionSettings>;
  seed?: number;
};

export type RecallRunResult = {
  planted: number;
  answered: number;
  unanswered: string[];
  /** Chat requests and their prompt tokens by the outside model's own count. */
  chatRequests: number;
  promptTokens: number;
  /** Of those, the automatic recall blocks (outside count). */
  recallTokens: number;
  recallBlocks: number;
  /** Calls of the history tools the model made. */
  toolCalls: number;
  largestPrompt: number;
  overWindow: number;
  truncations: number;
  appliedSummaries: number;
  conversationId: string;
};

const MODEL = "outside-recall";
/** How the automatic recall block opens (lib/compression/recall.ts); read here only to measure it. */
const RECALL_BLOCK = /^Earlier messages of this conversation that match/;

/** Fact keys that never contain one another ("k1" would be found inside "k13"). */
export function recallFact(index: number): { key: string; value: string; sentence: string } {
  const key = `k${100 + index}`;
  const value = `v${100_000 + index * 7}`;
  return { key, value, sentence: `The code name of project ${key} is ${value}.` };
}

export async function recallRun(db: Db, outside: OutsideModel, options: RecallRunOptions): Promise<RecallRunResult> {
  outside.reset();
  outside.configure({ summaryMode: "half_facts", chatMode: options.chatMode, contextWindow: options.window, titles: "follow", usage: "always", failRate: 0 });
  await saveTestSettings(db, { contextWindowOverrides: { [MODEL]: options.window }, ...options.settings });
  const conversation = await newConversation(MODEL, "You are a helpful assistant.");
  const rng = mulberry32(options.seed ?? options.window);
  const every = Math.max(1, Math.floor(options.turns / options.facts));
  let planted = 0;
  for (let turn = 0; turn < options.turns; turn++) {
    let content = `${chatter(rng, 60)} <<reply 150>>`;
    // The first fact a few turns in, the last well before the end, so every one is compressed by the time it is asked for.
    if (turn % every === 2 && planted < options.facts) content += `\n${recallFact(planted++).sentence}`;
    const events = await send(conversation.id, content);
    const error = events.find((event) => event.type === "error");
    if (error) throw new Error(`turn ${turn}: ${JSON.stringify(error)}`);
    await backgroundSettled(conversation.id);
  }
  const unanswered: string[] = [];
  for (let index = 0; index < planted; index++) {
    const fact = recallFact(index);
    const events = await send(conversation.id, `<<recall ${fact.key}>>`);
    await backgroundSettled(conversation.id);
    const reply = events.flatMap((event) => (event.type === "message" && event.message.role === "assistant" ? [event.message.content] : [])).at(-1) ?? "";
    if (!reply.includes(fact.value)) unanswered.push(`${fact.key}: ${reply.slice(0, 120)}`);
  }

  const chats = outside.requests().filter((request) => request.kind === "chat");
  let recallTokens = 0;
  let recallBlocks = 0;
  let toolCalls = 0;
  for (const request of chats) {
    for (const message of (request.body as { messages: Message[] }).messages) {
      const text = textOf(message.content);
      if (message.role === "system" && RECALL_BLOCK.test(text)) {
        recallTokens += 4 + countText(text);
        recallBlocks++;
      }
    }
    const call = request.reply?.toolCall;
    if (call && (call.name === "search_history" || call.name === "open_history")) toolCalls++;
  }
  const attempts = await db.compactionAttempt.findMany({ where: { conversationId: conversation.id } });
  return {
    planted,
    answered: planted - unanswered.length,
    unanswered,
    chatRequests: chats.length,
    promptTokens: chats.reduce((sum, request) => sum + request.promptTokens, 0),
    recallTokens,
    recallBlocks,
    toolCalls,
    largestPrompt: Math.max(0, ...outside.requests().map((request) => request.promptTokens)),
    overWindow: outside.stats().overWindow,
    truncations: attempts.filter((attempt) => attempt.strategy === "truncation" && attempt.outcome === "applied").length,
    appliedSummaries: attempts.filter((attempt) => attempt.outcome === "applied").length,
    conversationId: conversation.id,
  };
}
