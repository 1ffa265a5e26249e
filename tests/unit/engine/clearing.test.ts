// Tool output in the model's view, against the outside model (tests/support/outside-model):
// old rounds' results cleared before anything is summarized, large results cut to head
// and tail, and what the engine counts being what it sends.
import { describe, expect, it } from "vitest";
import { AutoCompressionManager } from "@/lib/compression/manager";
import { DEFAULT_SETTINGS, type CompressionSettings } from "@/lib/compression/settings";
import { MIN_TOOL_SESSION_WINDOW } from "@/lib/compression/budget";
import { isToolSession } from "@/lib/compression/clearing";
import type { ChatMessage, ClearingRecord, CompressionLogger, ToolCall } from "@/lib/compression/types";
import { TOOL_DEFINITIONS } from "@/lib/chat/tool-set";
import { countMessageTokens, createTokenCounter } from "@/lib/llm/tokens";
import * as outside from "../../support/outside-model/behaviour";
import { runAgentSession } from "../../support/agent-session";
import { chatter, MemoryStore, OutsideSummarizer } from "../../support/simulation";

const QUIET: CompressionLogger = { info() {}, warn() {}, error() {} };
const tokens = createTokenCounter();

/** A conversation of `rounds` tool rounds (one task message first), each result about `outputTokens` outside tokens. */
function agentStore(rounds: number, outputTokens: number) {
  const systemPrompt = "You are a coding agent.";
  const store = new MemoryStore({ conversationId: "t", model: "outside", systemPrompt, systemPromptTokens: countMessageTokens({ role: "system", content: systemPrompt }) });
  const rng = outside.mulberry32(5);
  userMessage(store, "Task: read every module log.");
  for (let index = 1; index <= rounds; index++) appendRound(store, index, chatter(rng, outputTokens));
  return store;
}

function userMessage(store: MemoryStore, content: string) {
  store.append({ role: "user", content, tokens: countMessageTokens({ role: "user", content }), pinned: false });
}

function assistantReply(store: MemoryStore, content: string) {
  store.append({ role: "assistant", content, tokens: countMessageTokens({ role: "assistant", content }), pinned: false });
}

function appendRound(store: MemoryStore, index: number, output: string) {
  const call: ToolCall = { id: `call_${index}`, name: "read_file", arguments: JSON.stringify({ path: `m${index}.log` }) };
  const wire: ChatMessage = { role: "assistant", content: `reading module ${index}`, tool_calls: [{ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }] };
  store.append({ role: "assistant", content: `reading module ${index}`, toolCalls: [call], tokens: countMessageTokens(wire), pinned: false });
  store.append({ role: "tool", content: output, toolCallId: call.id, toolName: call.name, tokens: countMessageTokens({ role: "tool", content: output, tool_call_id: call.id }), pinned: false });
}

function engine(window: number) {
  const summarizer = new OutsideSummarizer({ mode: "extractive" }, 1);
  let id = 0;
  const manager = new AutoCompressionManager({ summarizer, tokens, models: { contextWindow: () => window }, logger: QUIET, newId: () => `c${++id}` });
  return { manager, summarizer };
}

const settings = (patch: Partial<CompressionSettings> = {}): CompressionSettings => ({ ...DEFAULT_SETTINGS, preserveFactLines: false, ...patch });

describe("clearing old tool output", () => {
  it("clears every result older than the newest rounds, keeps every call, and writes no summary when that is enough", async () => {
    // 12 rounds of ~2,300 outside tokens at 32k: past the 80% threshold (a summary is due) before the call.
    // Two of these results pass the bound of one long result (3,276 at 32k), so only the newest round stays whole.
    const store = agentStore(12, 2300);
    const { manager, summarizer } = engine(32_768);
    const before = store.active();
    expect(manager.measure(before, settings()).totalTokens).toBeGreaterThan(manager.budget(before, settings()).thresholdTokens);
    expect(manager.needBeforeCall(before, settings())).toBe("due");
    const change = await manager.process(before, settings());
    store.save(change);
    expect(summarizer.calls).toBe(0);
    expect(change.created.map((c) => c.kind)).toEqual(["clearing"]);
    const record = change.created[0]!;
    const tools = store.messages.filter((m) => m.role === "tool");
    const cleared = tools.slice(0, -1);
    // The range opens at the call of the first cleared result and ends at the last cleared result.
    expect(record.fromSeq).toBe(cleared[0]!.seq - 1);
    expect(record.toSeq).toBe(cleared.at(-1)!.seq);
    expect(record.coveredMessageCount).toBe(11);
    expect(record.tokensAfter).toBeLessThan(record.tokensBefore);
    expect(change.attempts).toMatchObject([{ outcome: "applied", strategy: "clearing", compactionId: record.id }]);
    expect(change.attempts[0]!.reason).toContain("kept the newest 1 round)");

    const { messages } = manager.buildRequest(store.active(), settings());
    const results = messages.filter((m): m is Extract<ChatMessage, { role: "tool" }> => m.role === "tool");
    expect(results).toHaveLength(12);
    // Exactly the newest round keeps its output.
    results.forEach((result, index) => {
      if (index < 11) expect(result.content).toMatch(/^\[read_file result of [\d,]+ tokens cleared from view; open_history #\d+ reads it whole\]$/);
      else expect(result.content).toBe(tools[index]!.content);
    });
    // Every result directly follows its call, and every call is sent as it was.
    messages.forEach((message, index) => {
      if (message.role !== "tool") return;
      const owner = messages.slice(0, index).findLast((m) => m.role === "assistant");
      expect(owner?.role === "assistant" && owner.tool_calls?.some((call) => call.id === message.tool_call_id)).toBe(true);
    });
    expect(messages.filter((m) => m.role === "assistant" && m.tool_calls?.length)).toHaveLength(12);
    // The note names the message whose output it stands for, and its stored size.
    const firstNote = results[0]!.content;
    expect(firstNote).toContain(`#${cleared[0]!.seq} `);
    expect(firstNote).toContain(`${cleared[0]!.tokens.toLocaleString("en-US")} tokens`);
  });

  it("clears before any summary, with fewer summary calls than summarizing alone", async () => {
    const result = await runAgentSession({ window: 32_768, rounds: 40, seed: 2 });
    const kinds = result.changes.flatMap(({ change }) => change.created.map((c) => c.kind));
    expect(kinds).toContain("clearing");
    expect(kinds.indexOf("clearing")).toBeLessThan(Math.max(0, kinds.indexOf("summary")) || Infinity);
    for (const { change } of result.changes) {
      const order = change.created.map((c) => c.kind);
      const firstSummary = order.indexOf("summary");
      if (firstSummary >= 0 && order.includes("clearing")) expect(order.indexOf("clearing")).toBeLessThan(firstSummary);
    }
    expect(result.overWindow).toBe(0);
    expect(result.truncations).toBe(0);
    // The same session without clearing writes more summaries.
    const summariesOnly = await runAgentSession({ window: 32_768, rounds: 40, seed: 2, settings: { clearToolResults: false } });
    expect(result.summaryCalls).toBeLessThan(summariesOnly.summaryCalls);
    expect(result.summaryCostTokens).toBeLessThan(summariesOnly.summaryCostTokens);
  }, 60_000);

  it("a fact in a cleared output is still answered: the model looks it up with search_history", async () => {
    const result = await runAgentSession({ window: 32_768, rounds: 24, seed: 3 });
    expect(result.clearings).toBeGreaterThan(0);
    expect(result.factsPlanted).toBe(6);
    expect(result.factsAnswered).toBe(result.factsPlanted);
    // Most planted outputs are cleared by the end: their facts came back through the tool, not the request.
    expect(result.factsLookedUp).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it("keeps this turn's rounds until a summary is due or they make a chunk, and clears an earlier turn's as soon as a new round arrives (the cache break falls where the request was new anyway)", async () => {
    // Two results of ~2,300 outside tokens at 32k, in the turn under way: far under the threshold and under a fifth of it (the chunk rule).
    const store = agentStore(2, 2300);
    const { manager, summarizer } = engine(32_768);
    const before = store.active();
    expect(manager.measure(before, settings()).totalTokens).toBeLessThan(manager.budget(before, settings()).minClearingTokens);
    // The model may still be comparing the two: only the newest fits the bound of one long result, but nothing is cleared yet.
    expect((await manager.process(before, settings(), { background: true })).created).toEqual([]);
    // The user's next message ends that turn; once its first round arrives, the older rounds go.
    userMessage(store, "Now the next module.");
    appendRound(store, 3, chatter(outside.mulberry32(9), 2300));
    const change = await manager.process(store.active(), settings(), { background: true });
    expect(summarizer.calls).toBe(0);
    const [first, second, third] = store.messages.filter((m) => m.role === "tool");
    expect(change.created).toMatchObject([{ kind: "clearing", coveredMessageCount: 2, toSeq: second!.seq }]);
    store.save(change);
    const results = manager.buildRequest(store.active(), settings()).messages.filter((m) => m.role === "tool");
    expect(results.map((m) => m.content)).toEqual([expect.stringMatching(/cleared from view/), expect.stringMatching(/cleared from view/), third!.content]);
    expect(first!.seq).toBeLessThan(second!.seq);
  });

  it("with several rounds kept, waits until a clearing frees more than it makes the provider read again", async () => {
    // ~600 outside tokens a result: three kept rounds fit the bound, and clearing the oldest would re-send the two after it.
    const { manager } = engine(32_768);
    const keep = settings({ keepToolRounds: 3 });
    const nextTurn = (rounds: number) => {
      const store = agentStore(rounds, 600);
      userMessage(store, "And the rest.");
      appendRound(store, rounds + 1, chatter(outside.mulberry32(9), 600));
      return store;
    };
    expect((await manager.process(nextTurn(3).active(), keep, { background: true })).created).toEqual([]);
    // Four rounds past the kept ones free more than the notes and the two whole rounds the break re-sends.
    const change = await manager.process(nextTurn(6).active(), keep, { background: true });
    expect(change.created).toMatchObject([{ kind: "clearing", coveredMessageCount: 4 }]);
  });

  it("a clearing absorbs the one just before it: one range, one notice, however many passes cleared it", async () => {
    // A task every 4 rounds: the earlier tasks' rounds go as soon as a newer round arrives.
    const result = await runAgentSession({ window: 32_768, rounds: 13, seed: 4 });
    expect(result.clearings).toBeGreaterThanOrEqual(3);
    const active = result.store.active();
    expect(active.clearings).toHaveLength(1);
    const tools = active.messages.filter((m) => m.role === "tool");
    const lastTask = active.messages.findLast((m) => m.role === "user")!.seq;
    // From the first round's call to (at least) the last result before the newest task.
    expect(active.clearings![0]!.fromSeq).toBe(tools[0]!.seq - 1);
    expect(active.clearings![0]!.toSeq).toBeGreaterThanOrEqual(tools.findLast((m) => m.seq < lastTask)!.seq);
  });

  it("leaves the newest K rounds whole whatever K is when their results are short, and clears nothing with K rounds or fewer", async () => {
    // ~600 outside tokens a result: five rounds fit the bound of one long result (3,276 at 32k).
    for (const keepToolRounds of [0, 1, 5]) {
      const store = agentStore(22, 600);
      const { manager } = engine(32_768);
      const change = await manager.process(store.active(), settings({ keepToolRounds }));
      const clearing = change.created.find((c) => c.kind === "clearing")!;
      const tools = store.messages.filter((m) => m.role === "tool");
      expect(clearing.coveredMessageCount).toBe(22 - keepToolRounds);
      expect(clearing.toSeq).toBe(tools[22 - keepToolRounds - 1]!.seq);
    }
    const few = agentStore(3, 600);
    const { manager } = engine(32_768);
    const change = await manager.process(few.active(), settings({ keepToolRounds: 3, threshold: 0.05, preemptiveThreshold: 0 }));
    expect(change.created.filter((c) => c.kind === "clearing")).toEqual([]);
  });

  it("keeps fewer than K rounds when their results together pass the bound of one long result, and always the newest", async () => {
    const { manager } = engine(32_768);
    // Three cut results of 3,276 would hold 30% of a 32k window, more than a summary leaves of anything else.
    const long = agentStore(8, 9000);
    const change = await manager.process(long.active(), settings({ keepToolRounds: 3 }));
    const clearing = change.created.find((c) => c.kind === "clearing")!;
    const tools = long.messages.filter((m) => m.role === "tool");
    expect(clearing.toSeq).toBe(tools.at(-2)!.seq);
    expect(clearing.coveredMessageCount).toBe(7);
    // Two results of ~1,500 (ours) fit the bound together, a third does not.
    const medium = agentStore(12, 1800);
    const second = await manager.process(medium.active(), settings({ keepToolRounds: 3 }));
    const mediumTools = medium.messages.filter((m) => m.role === "tool");
    expect(second.created.find((c) => c.kind === "clearing")!.toSeq).toBe(mediumTools.at(-3)!.seq);
  });

  it("a later clearing absorbs an earlier one it overlaps, and pinned results stay whole", async () => {
    const store = agentStore(12, 1800);
    const pinned = store.messages.filter((m) => m.role === "tool")[1]!;
    (pinned as { pinned: boolean }).pinned = true;
    const { manager } = engine(32_768);
    const first = await manager.process(store.active(), settings());
    store.save(first);
    const record = first.created[0]!;
    expect(record.keptSeqs).toEqual([pinned.seq]);
    const { messages } = manager.buildRequest(store.active(), settings());
    expect(messages.some((m) => m.role === "tool" && m.content === pinned.content)).toBe(true);
    // Unpinned, the result is cleared by the next pass, which takes the earlier clearing in.
    (pinned as { pinned: boolean }).pinned = false;
    const second = await manager.process(store.active(), settings({ threshold: 0.1, preemptiveThreshold: 0 }));
    store.save(second);
    const next = second.created.find((c) => c.kind === "clearing")!;
    expect(next.childIds).toEqual([record.id]);
    expect(store.active().clearings?.map((c) => c.id)).toEqual([next.id]);
  });

  it("leaves a result shorter than its note as it is", async () => {
    const store = agentStore(8, 1800);
    const short = store.messages.filter((m) => m.role === "tool")[1]!;
    (short as { content: string }).content = "ok";
    (short as { tokens: number }).tokens = countMessageTokens({ role: "tool", content: "ok", tool_call_id: "call_2" });
    const { manager } = engine(32_768);
    const change = await manager.process(store.active(), settings({ threshold: 0.1, preemptiveThreshold: 0 }));
    const clearing = change.created.find((c) => c.kind === "clearing")!;
    expect(clearing.keptSeqs).toEqual([short.seq]);
    // Eight rounds, the newest two kept (together within the bound of one long result), the short one left as it is.
    expect(clearing.coveredMessageCount).toBe(5);
    store.save(change);
    const { messages } = manager.buildRequest(store.active(), settings());
    expect(messages.filter((m) => m.role === "tool").map((m) => m.content)[1]).toBe("ok");
  });

  it("is off with clearToolResults: false", async () => {
    const store = agentStore(12, 1800);
    const { manager } = engine(32_768);
    const change = await manager.process(store.active(), settings({ clearToolResults: false }));
    expect(change.created.some((c) => c.kind === "clearing")).toBe(false);
  });
});

describe("a tool session is summarized from the tool-session threshold", () => {
  /** The rounds of `store` whose calls are at seqs `from`–`to` as one cleared range (only the range matters to the rule). */
  const clearedRange = (store: MemoryStore, from: number, to: number) => {
    const calls = store.messages.filter((m) => m.role === "assistant" && m.toolCalls?.length);
    return [{ fromSeq: calls[from]!.seq, toSeq: calls[to]!.seq + 1 } as ClearingRecord];
  };

  it("is one when more than half of the model's messages in view, and at least 4, are calls whose results were cleared", () => {
    const store = agentStore(6, 50);
    expect(isToolSession({ messages: store.messages, clearings: [] })).toBe(false);
    expect(isToolSession({ messages: store.messages, clearings: clearedRange(store, 0, 2) })).toBe(false);
    expect(isToolSession({ messages: store.messages, clearings: clearedRange(store, 0, 3) })).toBe(true);
    // A plain reply after them: 4 cleared rounds of 7 replies is still a tool session; of 8 (an answer after every call) a conversation.
    userMessage(store, "a question");
    assistantReply(store, "an answer");
    expect(isToolSession({ messages: store.messages, clearings: clearedRange(store, 0, 3) })).toBe(true);
    assistantReply(store, "and another");
    expect(isToolSession({ messages: store.messages, clearings: clearedRange(store, 0, 3) })).toBe(false);
  });

  it("lowers the threshold to 50% once old results are cleared, from a 24k window, says so, and 0 leaves the auto threshold", async () => {
    const store = agentStore(12, 2300);
    const { manager } = engine(32_768);
    expect(manager.budget(store.active(), settings()).threshold).toBe(0.8);
    store.save(await manager.process(store.active(), settings()));
    const session = store.active();
    const budget = manager.budget(session, settings());
    expect(budget.threshold).toBe(0.5);
    expect(budget.thresholdTokens).toBe(Math.floor(32_768 * 0.5));
    // Pre-emptive compaction stays its margin under it.
    expect(budget.preemptiveThreshold).toBeCloseTo(0.4);
    expect(budget.adjustments).toContainEqual(expect.objectContaining({ setting: "threshold", configured: 0.8, effective: 0.5, reason: expect.stringContaining("tool calls whose results were cleared") }));
    expect(manager.budget(session, settings({ toolSessionThreshold: 0 })).threshold).toBe(0.8);
    expect(manager.budget(session, settings({ threshold: 0.45, preemptiveThreshold: 0.3 })).threshold).toBe(0.45);
    // Below a 24k window the same session keeps the auto threshold (there early summaries cost more than they save).
    const small = engine(MIN_TOOL_SESSION_WINDOW - 1).manager;
    expect(small.budget(session, settings()).threshold).toBe(0.8);
    expect(engine(MIN_TOOL_SESSION_WINDOW).manager.budget(session, settings()).threshold).toBe(0.5);
  });

  it("200 rounds at 32k: clearing then summarizing sends at most 60% of the prompt tokens of summarizing alone, answers as many facts, and bills less", async () => {
    const scenario = { window: 32_768, rounds: 200 } as const;
    const cleared = await runAgentSession(scenario);
    const summarizedOnly = await runAgentSession({ ...scenario, settings: { clearToolResults: false } });
    // As a provider bills them with cached input at a tenth: the chat requests and the summary calls.
    const billed = (r: Awaited<ReturnType<typeof runAgentSession>>) =>
      r.promptTokens - 0.9 * r.cachedTokens + r.summaryPromptTokens - 0.9 * r.summaryCachedTokens + r.summaryCompletionTokens;
    expect(cleared.overWindow + summarizedOnly.overWindow).toBe(0);
    expect(cleared.truncations).toBe(0);
    expect(cleared.promptTokens).toBeLessThanOrEqual(0.6 * summarizedOnly.promptTokens);
    expect(cleared.factsAnswered).toBeGreaterThanOrEqual(summarizedOnly.factsAnswered);
    expect(cleared.factsAnswered).toBe(cleared.factsPlanted);
    expect(billed(cleared)).toBeLessThan(billed(summarizedOnly));
    // The tool-session threshold is what brings it there: at the auto threshold the calls and notes fill the window first.
    const atAutoThreshold = await runAgentSession({ ...scenario, settings: { toolSessionThreshold: 0 } });
    expect(atAutoThreshold.promptTokens).toBeGreaterThan(0.6 * summarizedOnly.promptTokens);
    expect(billed(cleared)).toBeLessThan(billed(atAutoThreshold));
  }, 120_000);
});

describe("large results cut in the request", () => {
  it("sends a result over the bound as head and tail with a marker that counts what was left out, and counts what it sends", async () => {
    const store = agentStore(2, 12_000);
    const { manager } = engine(32_768);
    const active = store.active();
    const bound = manager.budget(active, settings()).toolResultMaxTokens;
    expect(bound).toBe(3276);
    const { messages, breakdown } = manager.buildRequest(active, settings());
    const stored = active.messages.filter((m) => m.role === "tool");
    const sent = messages.filter((m): m is Extract<ChatMessage, { role: "tool" }> => m.role === "tool");
    sent.forEach((result, index) => {
      const original = stored[index]!;
      const marker = /\n\[… ([\d,]+) tokens of this result left out; open_history #(\d+) reads it whole\]\n/.exec(result.content);
      expect(marker).not.toBeNull();
      expect(Number(marker![2])).toBe(original.seq);
      const [head, tail] = result.content.split(marker![0]);
      expect(original.content.startsWith(head!)).toBe(true);
      expect(original.content.endsWith(tail!)).toBe(true);
      expect(Number(marker![1]!.replace(/,/g, ""))).toBe(tokens.count(original.content) - tokens.count(head!) - tokens.count(tail!));
      expect(countMessageTokens(result)).toBeLessThanOrEqual(bound);
    });
    // What the engine measures is what it sends, by our count...
    const ours = messages.reduce((sum, m) => sum + countMessageTokens(m), 0);
    expect(breakdown.systemTokens + breakdown.summaryTokens + breakdown.messageTokens).toBe(ours);
    expect(manager.measure(active, settings()).messageTokens).toBe(breakdown.messageTokens);
    // ...and the stored messages stay whole.
    expect(stored.every((m) => m.content.length > 40_000)).toBe(true);
  });

  it("the calibrated measure matches the outside model's count of the request it is sent", async () => {
    const result = await runAgentSession({ window: 32_768, rounds: 30, seed: 4 });
    // Once replies report usage, our calibrated figure is the server's count of the request to within 3%.
    const store = result.store;
    const { manager } = engine(32_768);
    const active = store.active();
    const measured = manager.measure(active, settings()).totalTokens;
    const { messages } = manager.buildRequest(active, settings());
    // With the tools the turn offers (the history tools among them once anything is compressed).
    const theirs = outside.promptTokens({ messages: messages as unknown as outside.Message[], tools: (active.tools ?? TOOL_DEFINITIONS) as unknown as outside.ToolShape[] });
    expect(Math.abs(measured - theirs) / theirs).toBeLessThan(0.03);
  }, 60_000);
});
