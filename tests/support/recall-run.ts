// The recall acceptance run: a long conversation through the real turn (lib/chat,
// PostgreSQL) against the outside model, with plain-sentence facts planted along the
// way and a summarizer that loses half of the facts it reads; then every fact is asked
// for. The outside model answers a `<<recall WORD>>` from what its request holds, or —
// in its `search` chat mode — looks the word up with a search tool it is offered.
import type { Actor } from "../../lib/chat/actor";
import { backgroundSettled } from "../../lib/chat/compressor";
import type { TurnEvent } from "../../lib/chat/events";
import * as ops from "../../lib/chat/operations";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../../lib/compression/settings";
import type { Db } from "../../lib/db/client";
import { writeUserSettings } from "../../lib/db/settings";
import { countText, mulberry32, textOf, type ChatMode, type Message, type SummaryMode } from "./outside-model/behaviour";
import type { OutsideModel } from "./outside-model/server";
import { chatter } from "./simulation";

export type RecallRunOptions = {
  window: number;
  turns: number;
  facts: number;
  chatMode: ChatMode;
  /** Default half_facts: a summarizer that loses half of the facts it reads. */
  summaryMode?: SummaryMode;
  /** Size of a turn (outside tokens): the user's chatter and the reply. */
  userTokens?: number;
  replyTokens?: number;
  settings?: Partial<CompressionSettings>;
  seed?: number;
  /**
   * Every turn also says something specific (a build number, a ticket), as a working
   * conversation does: the facts then compete with other specifics for the room summaries
   * and stand-ins have, instead of being the only sentences worth keeping. Default on.
   */
  noise?: boolean;
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
  /** Chat requests that offered the history tools. */
  historyToolOffers: number;
  summaryCalls: number;
  /** Prompt plus completion of the summary calls (outside count). */
  summaryCostTokens: number;
  cachedTokens: number;
  summaryPromptTokens: number;
  summaryCachedTokens: number;
  highestLevel: number;
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

async function turn(actor: Actor, conversationId: string, content: string): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of await ops.startTurn(actor, { conversationId, content })) events.push(event);
  return events;
}

/** Runs as `actor`, whose own settings it overwrites (defaults, the window, then `options.settings`). */
export async function recallRun(db: Db, actor: Actor, outside: OutsideModel, options: RecallRunOptions): Promise<RecallRunResult> {
  outside.reset();
  outside.configure({ summaryMode: options.summaryMode ?? "half_facts", chatMode: options.chatMode, contextWindow: options.window, titles: "follow", usage: "always", failRate: 0 });
  await writeUserSettings(db, actor.id, { ...DEFAULT_SETTINGS, contextWindowOverrides: { [MODEL]: options.window }, ...options.settings });
  const conversation = await ops.createConversation(actor, { title: "Recall run", model: MODEL, systemPrompt: "You are a helpful assistant." });
  const rng = mulberry32(options.seed ?? options.window);
  const every = Math.max(1, Math.floor(options.turns / options.facts));
  let planted = 0;
  for (let index = 0; index < options.turns; index++) {
    let content = `${chatter(rng, options.userTokens ?? 60)} <<reply ${options.replyTokens ?? 150}>>`;
    if (options.noise ?? true) content += `\nBuild ${1000 + Math.floor(rng() * 9000)} of branch ${index} passed on runner R${Math.floor(rng() * 90) + 10}.`;
    // The first fact a few turns in, the last well before the end, so every one is compressed by the time it is asked for.
    if (index % every === 2 && planted < options.facts) content += `\n${recallFact(planted++).sentence}`;
    const events = await turn(actor, conversation.id, content);
    const error = events.find((event) => event.type === "error");
    if (error) throw new Error(`turn ${index}: ${JSON.stringify(error)}`);
    await backgroundSettled(conversation.id);
  }
  const unanswered: string[] = [];
  for (let index = 0; index < planted; index++) {
    const fact = recallFact(index);
    const events = await turn(actor, conversation.id, `<<recall ${fact.key}>>`);
    await backgroundSettled(conversation.id);
    const reply = events.flatMap((event) => (event.type === "message" && event.message.role === "assistant" ? [event.message.content] : [])).at(-1) ?? "";
    if (!reply.includes(fact.value)) unanswered.push(`${fact.key}: ${reply.slice(0, 120)}`);
  }

  const chats = outside.requests().filter((request) => request.kind === "chat");
  let recallTokens = 0;
  let recallBlocks = 0;
  let toolCalls = 0;
  let historyToolOffers = 0;
  for (const request of chats) {
    const tools = (request.body as { tools?: { function?: { name?: string } }[] }).tools ?? [];
    if (tools.some((tool) => tool.function?.name === "search_history")) historyToolOffers++;
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
  const summaries = outside.requests().filter((request) => request.kind === "summary" && request.status === 200);
  const highest = await db.compaction.aggregate({ where: { conversationId: conversation.id }, _max: { level: true } });
  return {
    planted,
    answered: planted - unanswered.length,
    unanswered,
    chatRequests: chats.length,
    promptTokens: chats.reduce((sum, request) => sum + request.promptTokens, 0),
    recallTokens,
    recallBlocks,
    toolCalls,
    historyToolOffers,
    summaryCalls: summaries.length,
    summaryCostTokens: summaries.reduce((sum, request) => sum + request.promptTokens + countText(request.reply?.text ?? ""), 0),
    cachedTokens: outside.promptCache().cachedTokens,
    summaryPromptTokens: outside.promptCache().summaryPromptTokens,
    summaryCachedTokens: outside.promptCache().summaryCachedTokens,
    highestLevel: highest._max.level ?? 0,
    largestPrompt: Math.max(0, ...outside.requests().map((request) => request.promptTokens)),
    overWindow: outside.stats().overWindow,
    truncations: attempts.filter((attempt) => attempt.strategy === "truncation" && attempt.outcome === "applied").length,
    appliedSummaries: attempts.filter((attempt) => attempt.outcome === "applied").length,
    conversationId: conversation.id,
  };
}
