// Clearing old tool output through the real database: the record stored like a compaction,
// the results shown as notes to the model but whole in the timeline, and rewind undoing it.
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { activeTranscript, compressBeforeCall, compressionManager, contextMeter } from "../../lib/chat/compressor";
import { loadTimeline } from "../../lib/db/compactions";
import { appendMessages } from "../../lib/db/messages";
import { searchHistory } from "../../lib/db/search";
import { readSettings } from "../../lib/db/settings";
import { pathToSeq } from "../../lib/db/tree-navigation";
import { countMessageTokens } from "../../lib/llm/tokens";
import { newConversation, saveTestSettings, setupHarness } from "../support/harness";

const h = setupHarness();
const MODEL = "gpt-4o-mini";

const filler = (index: number) => Array.from({ length: 160 }, (_, word) => `word${(index * 31 + word) % 97}`).join(" ") + ".";

/** A task and `rounds` tool rounds of about 450 tokens each, stored as the chat loop stores them. */
async function toolRounds(conversationId: string, task: string, rounds: number, first: number) {
  await appendMessages(h.db, h.user.id, conversationId, [{ role: "user", content: task, tokenCount: countMessageTokens({ role: "user", content: task }) }]);
  for (let index = first; index < first + rounds; index++) {
    const call = { id: `call_${index}`, name: "current_time", arguments: "{}" };
    await appendMessages(h.db, h.user.id, conversationId, [
      {
        role: "assistant",
        content: "",
        toolCalls: [call],
        model: MODEL,
        status: "complete",
        tokenCount: countMessageTokens({ role: "assistant", content: null, tool_calls: [{ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }] }),
      },
    ]);
    const content = `result ${index}: ${filler(index)}`;
    await appendMessages(h.db, h.user.id, conversationId, [
      { role: "tool", content, toolCallId: call.id, toolName: call.name, outcome: "done", tokenCount: countMessageTokens({ role: "tool", content, tool_call_id: call.id }) },
    ]);
  }
}

describe("clearing old tool output", () => {
  it("is stored as a clearing record with an applied attempt, shown as a notice above whole results, and undone by a rewind", async () => {
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 8000 }, preemptiveThreshold: 0, keepToolRounds: 2, keepRecentCount: 4 });
    const conversation = await newConversation(MODEL);
    await toolRounds(conversation.id, "Task one: read the logs.", 6, 1);
    await toolRounds(conversation.id, "Task two: read more logs.", 4, 7);
    const stored = await h.db.message.count({ where: { conversationId: conversation.id } });
    const { settings } = await readSettings(h.db, h.user.id, conversation.id);

    const applied = await compressBeforeCall(h.user.id, conversation.id, settings);
    expect(applied.saved).toBe(true);
    const rows = await h.db.compaction.findMany({ where: { conversationId: conversation.id } });
    expect(rows.map((row) => row.kind)).toEqual(["clearing"]);
    const record = rows[0]!;
    // Rounds 1–8 of 10 cleared: from the first call to the eighth result.
    const seqOf = async (content: string) => (await h.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, content: { startsWith: content } } })).seq;
    expect(record.fromSeq).toBe((await seqOf("result 1:")) - 1);
    expect(record.toSeq).toBe(await seqOf("result 8:"));
    expect(record.strategy).toBe("clearing");
    expect(record.level).toBe(0);
    expect(record.coveredMessageCount).toBe(8);
    expect(record.tokensAfter).toBeLessThan(record.tokensBefore);
    const attempts = await h.db.compactionAttempt.findMany({ where: { conversationId: conversation.id } });
    expect(attempts).toMatchObject([{ outcome: "applied", strategy: "clearing", compactionId: record.id }]);

    // The model's view: every message still there, eight results as notes, the newest two whole.
    const transcript = await activeTranscript(h.user.id, conversation.id);
    expect(transcript.messages).toHaveLength(stored);
    expect(transcript.clearings?.map((c) => c.id)).toEqual([record.id]);
    const { messages } = compressionManager().buildRequest(transcript, settings);
    const results = messages.filter((m) => m.role === "tool").map((m) => m.content ?? "");
    expect(results.filter((content) => content.includes("cleared from view; open_history #"))).toHaveLength(8);
    expect(results.slice(-2).every((content) => content.startsWith("result "))).toBe(true);
    // No new compaction is due right after.
    expect(compressionManager().needBeforeCall(transcript, settings)).toBe("nothing");
    // Eight of the ten replies in view are calls with cleared results: a tool session. From a 24k window it is summarized
    // from 50%, and the meter says so; at this 8k window it keeps the auto threshold.
    const wide = { ...settings, contextWindowOverrides: { [MODEL]: 32_768 } };
    const meter = await contextMeter(h.user.id, conversation.id, wide);
    expect(meter.threshold).toBe(0.5);
    expect(meter.adjustments).toContainEqual(expect.objectContaining({ setting: "threshold", configured: 0.8, effective: 0.5 }));
    expect((await contextMeter(h.user.id, conversation.id)).threshold).toBeCloseTo(0.8);

    // The timeline: a notice where the clearing starts, and every message whole.
    const { items } = await loadTimeline(h.db, h.user.id, conversation.id, { limit: 100 });
    expect(items.filter((item) => item.type === "compaction").map((item) => item.type === "compaction" && item.compaction.kind)).toEqual(["clearing"]);
    const shown = items.flatMap((item) => (item.type === "message" ? [item.message] : []));
    expect(shown).toHaveLength(stored);
    expect(shown.filter((m) => m.role === "tool").every((m) => m.content.startsWith("result "))).toBe(true);
    const noticeIndex = items.findIndex((item) => item.type === "compaction");
    const next = items[noticeIndex + 1];
    expect(next?.type === "message" && next.message.seq).toBe(record.fromSeq);

    // Search finds the cleared results themselves, not the clearing's own note about them, and does not call them compressed.
    const hits = await searchHistory(h.db, h.user.id, "cleared", { conversationId: conversation.id, limit: 10 });
    expect(hits.filter((hit) => hit.kind === "summary")).toEqual([]);
    const resultHits = await searchHistory(h.db, h.user.id, "result", { conversationId: conversation.id, limit: 20 });
    expect(resultHits.length).toBeGreaterThan(0);
    expect(resultHits.every((hit) => hit.kind === "message" && !hit.compressed)).toBe(true);

    // "Go to #n" on a cleared result opens nothing: the message stands in the timeline itself.
    expect((await pathToSeq(h.db, h.user.id, conversation.id, record.toSeq)).path).toEqual([]);

    // Rewinding task two takes the clearing with it (it reached into that turn); the results are whole again.
    const rewound = await ops.rewind(h.user, { conversationId: conversation.id, turns: 1 });
    expect(rewound.undoneCompactions).toBe(1);
    expect((await h.db.compaction.findUniqueOrThrow({ where: { id: record.id } })).undoneAt).not.toBeNull();
    const after = await activeTranscript(h.user.id, conversation.id);
    expect(after.clearings ?? []).toEqual([]);
    const resent = compressionManager().buildRequest(after, settings).messages.filter((m) => m.role === "tool");
    expect(resent).toHaveLength(6);
    expect(resent.every((m) => (m.content ?? "").startsWith("result "))).toBe(true);
    expect((await contextMeter(h.user.id, conversation.id, wide)).threshold).toBe(0.8);
  }, 60_000);
});
