// Recall through the real turn (lib/chat, PostgreSQL) against the outside model: the
// history tools appear once something is compressed and read the stored originals;
// the automatic block quotes the compressed messages that match the user's message;
// and a reduced acceptance run (the full one is tests/faults/recall-acceptance.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backgroundSettled } from "../../lib/chat/compressor";
import { newConversation, saveTestSettings, send, setupHarness } from "../support/harness";
import { startOutsideModel, type OutsideModel, type RecordedRequest } from "../support/outside-model/server";
import { mulberry32, textOf, type Message } from "../support/outside-model/behaviour";
import { chatter } from "../support/simulation";
import { recallFact, recallRun } from "../support/recall-run";

const h = setupHarness();
let outside: OutsideModel;
const MODEL = "outside-recall";

beforeAll(async () => {
  outside = await startOutsideModel({ seed: 5 });
  process.env.OPENAI_BASE_URL = outside.url;
});
afterAll(async () => {
  await outside.close();
});

const toolNames = (request: RecordedRequest) => ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name);
const messagesOf = (request: RecordedRequest) => (request.body as { messages: Message[] }).messages;

/**
 * A conversation at a 4k window, compressed a few times over, with facts planted early
 * and lost from every summary (drop_facts, and no specifics carried over by the engine).
 */
async function compressedConversation(chatMode: "search" | "ignore" | "directed", recallMode: "off" | "tools" | "automatic" | "both" = "both") {
  outside.reset();
  outside.configure({ summaryMode: "drop_facts", chatMode, contextWindow: 4096 });
  await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 4096 }, recallMode, carryDetails: false });
  const conversation = await newConversation(MODEL);
  const rng = mulberry32(11);
  for (let turn = 0; turn < 30; turn++) {
    const fact = turn < 3 ? `\n${recallFact(turn).sentence}` : "";
    const events = await send(conversation.id, `${chatter(rng, 50)} <<reply 120>>${fact}`);
    expect(events.find((event) => event.type === "error")).toBeUndefined();
    await backgroundSettled(conversation.id);
  }
  const compactions = await h.db.compaction.count({ where: { conversationId: conversation.id, supersededById: null } });
  expect(compactions).toBeGreaterThan(0);
  return conversation;
}

describe("history tools", () => {
  it("are offered only once something is compressed, and find and open the originals a summary dropped", async () => {
    const conversation = await compressedConversation("search", "tools");
    const chats = outside.requests().filter((request) => request.kind === "chat");
    expect(toolNames(chats[0]!)).not.toContain("search_history");
    expect(toolNames(chats.at(-1)!)).toEqual(expect.arrayContaining(["search_history", "open_history"]));
    // drop_facts lost the fact from every summary: the model looks it up and answers from the tool's result.
    outside.reset();
    const events = await send(conversation.id, `<<recall ${recallFact(1).key}>>`);
    const stored = events.flatMap((event) => (event.type === "message" ? [event.message] : []));
    const call = stored.flatMap((message) => (message.role === "assistant" && message.toolCalls?.length ? message.toolCalls : []))[0];
    expect(call).toMatchObject({ name: "search_history", arguments: JSON.stringify({ query: recallFact(1).key }) });
    const result = stored.find((message) => message.role === "tool")!;
    expect(result.content).toMatch(/^Matches for "k101"/);
    // An excerpt around the match (ts_headline ends it at the last word).
    expect(result.content).toContain(recallFact(1).sentence.replace(/\.$/, ""));
    expect(stored.at(-1)!.content).toContain(recallFact(1).value);
    // The call and its result are ordinary stored messages, counted like any other.
    const rows = await h.db.message.findMany({ where: { conversationId: conversation.id, seq: { in: stored.map((m) => m.seq) } } });
    expect(rows.every((row) => row.tokenCount > 0)).toBe(true);

    // open_history reads the fact's message word for word by its number.
    const seq = Number(/#(\d+) \(user\)/.exec(result.content)![1]);
    const opened = await send(conversation.id, `<<tool open_history {"from": ${seq}}>>`);
    const page = opened.flatMap((event) => (event.type === "message" && event.message.role === "tool" ? [event.message.content] : []))[0]!;
    expect(page).toContain(`[#${seq} user]:`);
    expect(page).toContain(recallFact(1).sentence);
    expect(page).toContain("(End of the range.)");
  }, 120_000);

  it("pages a long range within the recall budget and says how to get the next page", async () => {
    const conversation = await compressedConversation("directed", "tools");
    const events = await send(conversation.id, '<<tool open_history {"from": 1, "to": 40}>>');
    const page = events.flatMap((event) => (event.type === "message" && event.message.role === "tool" ? [event.message.content] : []))[0]!;
    expect(page).toMatch(/^\[#1 user\]:/);
    const next = /\(More: open_history \{"from": (\d+), "to": 40\}\)$/.exec(page);
    expect(next).not.toBeNull();
    // 8% of a 4k window, in our count; the outside model's count (4 chars a token) is close to it.
    expect(Math.ceil(page.length / 4)).toBeLessThan(420);
    const rest = await send(conversation.id, `<<tool open_history {"from": ${next![1]}, "to": 40}>>`);
    const second = rest.flatMap((event) => (event.type === "message" && event.message.role === "tool" ? [event.message.content] : []))[0]!;
    expect(second.startsWith(`[#${next![1]} `)).toBe(true);
    const bad = await send(conversation.id, '<<tool open_history {"from": 9, "to": 3}>>');
    const refused = bad.flatMap((event) => (event.type === "message" && event.message.role === "tool" ? [event.message] : []))[0]!;
    expect(refused.content).toMatch(/^Error: .*to must not be below from/);
  }, 120_000);

  it("are left out of `both` below an 8k window (automatic recall stands in), and the notice does not name them", async () => {
    await compressedConversation("ignore", "both");
    const last = outside.requests().filter((request) => request.kind === "chat").at(-1)!;
    expect(toolNames(last)).not.toContain("search_history");
    const notice = messagesOf(last).map((m) => textOf(m.content)).find((text) => /summarized in your context/.test(text));
    expect(notice).toMatch(/quoted just before it/);
    expect(notice).not.toMatch(/search_history/);
  }, 120_000);

  it("are not offered with recall set to automatic", async () => {
    await compressedConversation("directed", "automatic");
    const last = outside.requests().filter((request) => request.kind === "chat").at(-1)!;
    expect(toolNames(last)).not.toContain("search_history");
  }, 120_000);
});

describe("automatic recall", () => {
  it("quotes the compressed messages that match the user's message just before it, for that turn only, within the hard limit", async () => {
    const conversation = await compressedConversation("ignore", "automatic");
    outside.reset();
    const events = await send(conversation.id, `<<recall ${recallFact(2).key}>>`);
    const request = outside.requests().find((r) => r.kind === "chat")!;
    const messages = messagesOf(request);
    const block = textOf(messages.at(-2)!.content);
    expect(messages.at(-2)!.role).toBe("system");
    expect(block).toMatch(/^Earlier messages of this conversation that match/);
    expect(block).toMatch(new RegExp(`\\[#\\d+ user\\]: .*${recallFact(2).sentence.replace(/\./g, "\\.")}`));
    // The rarest word decides: the fact's own message comes first.
    expect(block.split("\n")[1]).toContain(recallFact(2).key);
    expect(events.flatMap((e) => (e.type === "message" ? [e.message.content] : [])).at(-1)).toContain(recallFact(2).value);
    expect(request.promptTokens).toBeLessThanOrEqual(4096);
    // Not stored: the next turn's request has no block for a message that matches nothing.
    outside.reset();
    await send(conversation.id, "zebra quokka <<reply 5>>");
    const next = messagesOf(outside.requests().find((r) => r.kind === "chat")!);
    expect(next.some((m) => /^Earlier messages of this conversation that match/.test(textOf(m.content)))).toBe(false);
    const stored = await h.db.message.findMany({ where: { conversationId: conversation.id } });
    expect(stored.some((m) => m.content.startsWith("Earlier messages of this conversation"))).toBe(false);
  }, 120_000);

  it("adds nothing with recall off, not even the notice", async () => {
    await compressedConversation("ignore", "off");
    const last = messagesOf(outside.requests().filter((request) => request.kind === "chat").at(-1)!);
    expect(last.some((m) => /summarized in your context|^Earlier messages of this conversation/.test(textOf(m.content)))).toBe(false);
  }, 120_000);
});

describe("acceptance, reduced (8k window, 120 turns, 12 facts, a summarizer that drops half of the facts)", () => {
  const runs = [
    { name: "a model that searches (default settings)", chatMode: "search", floor: 12 },
    // Without the engine carrying specifics over, the summaries really lose half of the facts: only the tools bring them back.
    { name: "a model that searches, recall by tools only, specifics not carried", chatMode: "search", floor: 12, recallMode: "tools" },
    { name: "a model that ignores tools (default settings: automatic recall)", chatMode: "ignore", floor: 11 },
  ] as const;
  for (const { name, chatMode, floor, ...rest } of runs) {
    const recallMode = "recallMode" in rest ? rest.recallMode : undefined;
    it(`${name}: ≥ ${floor} of 12 answered, nothing over the window, no truncation`, async () => {
      const result = await recallRun(h.db, h.user, outside, { window: 8192, turns: 120, facts: 12, chatMode, ...(recallMode ? { settings: { recallMode, carryDetails: false } } : {}) });
      console.log(`recall acceptance (reduced) ${name}:`, JSON.stringify({ ...result, unanswered: result.unanswered.slice(0, 5) }));
      expect(result.planted).toBe(12);
      expect(result.answered).toBeGreaterThanOrEqual(floor);
      expect(result.overWindow).toBe(0);
      expect(result.largestPrompt).toBeLessThanOrEqual(8192);
      expect(result.truncations).toBe(0);
      expect(result.appliedSummaries).toBeGreaterThan(0);
      if (recallMode === "tools") expect(result.toolCalls).toBeGreaterThan(0);
      else expect(result.recallBlocks).toBeGreaterThan(0);
      // A block only where the user's message shares a telling word with a compressed one (the
      // questions, and chatter whose build number or runner happens to recur), not on every turn.
      expect(result.recallBlocks).toBeLessThan(result.chatRequests / 2);
    }, 600_000);
  }
});
