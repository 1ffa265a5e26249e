// The active context a process keeps between turns (lib/db/transcript.ts) against what a
// fresh read gives, while ANOTHER app instance (its own database client and its own kept
// contexts) changes the conversation: appends, a compaction, a pin, a hidden reply, an
// extended reply, a rewind that undoes the compaction, a new system prompt. Each change
// must be in this instance's next load. Needs a second client on the same database,
// so it runs on PostgreSQL only (an in-memory PGlite has a single opener).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../lib/db/generated/client";
import type { Db } from "../../lib/db/client";
import { loadTranscript } from "../../lib/db/transcript";
import { cachedContext, keepStored } from "../../lib/db/context-cache";
import { appendMessages, appendReply, extendReply, setPinned } from "../../lib/db/messages";
import { saveCompressionChange } from "../../lib/db/compactions";
import { rewindFrom } from "../../lib/db/rewind";
import { conversationChangeState } from "../../lib/db/turn-lease";
import { historyState } from "../../lib/db/history";
import { DEFAULT_SETTINGS } from "../../lib/compression/settings";
import { compressionManager, countSystemPrompt } from "../../lib/chat/compressor";
import { openTurnGateWithMessage } from "../../lib/chat/concurrency";
import { countMessageTokens } from "../../lib/llm/tokens";
import { TEST_DB } from "./support/database";
import { newConversation, setupHarness } from "../support/harness";

const h = setupHarness();

function client(): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }) }) as unknown as Db;
}

describe.skipIf(TEST_DB === "embedded")("the active context kept between turns, with a second app instance writing", () => {
  let other: Db;
  let conversationId: string;
  const load = (db: Db) => loadTranscript(db, h.user.id, conversationId, countSystemPrompt);
  /** What a process that never saw the conversation reads. */
  async function truth() {
    const fresh = client();
    try {
      return await load(fresh);
    } finally {
      await fresh.$disconnect();
    }
  }
  async function expectCurrent() {
    const kept = await load(h.db);
    expect(kept).toEqual(await truth());
    return kept.transcript;
  }
  const text = (n: number, words = 40) => `message ${n}: ${"lorem ipsum dolor ".repeat(words)}`;
  const append = (db: Db, role: "user" | "assistant", content: string) =>
    appendMessages(db, h.user.id, conversationId, [
      role === "user"
        ? { role, content, tokenCount: countMessageTokens({ role, content }) }
        : { role, content, tokenCount: countMessageTokens({ role, content }), model: "gpt-4o-mini", status: "complete" },
    ]);

  beforeAll(async () => {
    other = client();
    conversationId = (await newConversation()).id;
    for (let n = 1; n <= 12; n++) await append(h.db, n % 2 ? "user" : "assistant", text(n));
  });
  afterAll(async () => {
    await other.$disconnect();
  });

  it("reads only what is new when nothing else changed, and gives what a fresh read gives", async () => {
    const first = await expectCurrent();
    expect(first.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(cachedContext(h.db, conversationId)).toMatchObject({ lastSeq: 12 });
    await append(other, "user", text(13));
    await append(other, "assistant", text(14));
    const next = await expectCurrent();
    expect(next.messages.map((m) => m.seq).slice(-2)).toEqual([13, 14]);
    expect(cachedContext(h.db, conversationId)).toMatchObject({ lastSeq: 14 });
  });

  it("sees a compaction the other instance stored, then a pin of a message it covers", async () => {
    const before = await expectCurrent();
    const { transcript, historyVersion } = await load(other);
    const change = await compressionManager().compactNow(transcript, { ...DEFAULT_SETTINGS, keepRecentCount: 2 });
    expect(change.created).toHaveLength(1);
    expect((await saveCompressionChange(other, h.user.id, conversationId, change, historyVersion)).saved).toBe(true);
    const compacted = await expectCurrent();
    expect(compacted.compactions).toHaveLength(1);
    expect(compacted.messages.length).toBeLessThan(before.messages.length);

    const covered = compacted.compactions[0]!.fromSeq;
    await setPinned(other, h.user.id, conversationId, covered, true);
    const pinned = await expectCurrent();
    expect(pinned.messages.find((m) => m.seq === covered)).toMatchObject({ pinned: true });
  });

  it("sees a reply hidden, extended or rewound there, and a new system prompt", async () => {
    await expectCurrent();
    // A failed reply is never sent back: the other instance marks the last one so.
    await other.message.updateMany({ where: { conversationId, seq: 14 }, data: { status: "error" } });
    expect((await expectCurrent()).messages.some((m) => m.seq === 14)).toBe(false);
    await other.message.updateMany({ where: { conversationId, seq: 14 }, data: { status: "complete" } });
    await expectCurrent();

    const reply = await other.message.findFirstOrThrow({ where: { conversationId, seq: 14 } });
    await extendReply(other, h.user.id, conversationId, reply.id, { text: " and more", reasoning: "", status: "complete", requestTokens: 10 }, (content) =>
      countMessageTokens({ role: "assistant", content }),
    );
    expect((await expectCurrent()).messages.find((m) => m.seq === 14)?.content).toMatch(/ and more$/);

    const manager = compressionManager();
    // Rewinding to the first message hides everything and undoes the compaction over it.
    await rewindFrom(other, h.user.id, conversationId, 3, manager.planRewind.bind(manager));
    const rewound = await expectCurrent();
    expect(rewound.compactions).toHaveLength(0);
    expect(rewound.messages.map((m) => m.seq)).toEqual([1, 2]);

    await other.conversation.update({ where: { id: conversationId }, data: { systemPrompt: "Answer in French." } });
    const prompted = await expectCurrent();
    expect(prompted).toMatchObject({ systemPrompt: "Answer in French.", systemPromptTokens: await countSystemPrompt("Answer in French.") });
  });

  describe("the turn's own statements", () => {
    const open = (content: string) =>
      openTurnGateWithMessage(h.user.id, conversationId, { role: "user", content, tokenCount: countMessageTokens({ role: "user", content }) }, null);
    const seqs = (transcript: { messages: { seq: number }[] }) => transcript.messages.map((m) => m.seq);

    it("a stored user message joins the kept copy, and a load at the row its statement returned reads nothing", async () => {
      await expectCurrent();
      const { gate, stored } = await open("the turn's message");
      try {
        const head = stored.head;
        expect(cachedContext(h.db, conversationId)).toMatchObject({ lastSeq: head.lastSeq });
        const atHead = await loadTranscript(h.db, h.user.id, conversationId, countSystemPrompt, head);
        expect(atHead).toEqual(await truth());
        expect(seqs(atHead.transcript).at(-1)).toBe(head.lastSeq);
        // Nothing was read: a message the other instance stores now is not in a load at
        // that row (a read an instant earlier would not have had it either), and is in
        // the next ordinary load.
        await append(other, "assistant", "stored by the other instance after the turn's statement");
        const stillAtHead = await loadTranscript(h.db, h.user.id, conversationId, countSystemPrompt, head);
        expect(seqs(stillAtHead.transcript)).toEqual(seqs(atHead.transcript));
        expect(seqs(await expectCurrent()).at(-1)).toBe(head.lastSeq + 1);
      } finally {
        await gate.close();
      }
    });

    it("the history tools' offer at the turn's row is what the statement answers, a compaction stored elsewhere included", async () => {
      await expectCurrent();
      const offerAt = async (content: string) => {
        const { gate, stored } = await open(content);
        try {
          const atRow = await historyState(h.db, h.user.id, conversationId, stored.head);
          expect(atRow).toEqual(await historyState(h.db, h.user.id, conversationId));
          return atRow;
        } finally {
          await gate.close();
        }
      };
      const before = await offerAt("before anything is compressed here");
      const { transcript, historyVersion } = await load(other);
      const change = await compressionManager().compactNow(transcript, { ...DEFAULT_SETTINGS, keepRecentCount: 2 });
      expect((await saveCompressionChange(other, h.user.id, conversationId, change, historyVersion)).saved).toBe(true);
      // The kept copy is older than the compaction: the offer is read.
      const after = await offerAt("after the other instance compacted");
      expect([before?.compacted, after?.compacted]).toEqual([false, true]);
      // Once the copy is current again, it answers.
      await expectCurrent();
      expect((await offerAt("with the copy current"))?.compacted).toBe(true);
      expect(cachedContext(h.db, conversationId)?.compactions.length).toBeGreaterThan(0);
    });

    it("reads when the kept copy is not at that row (the other instance stored a message first)", async () => {
      await expectCurrent();
      await append(other, "assistant", "stored by the other instance before the turn");
      const { gate, stored } = await open("a message after it");
      try {
        const head = stored.head;
        const loaded = await loadTranscript(h.db, h.user.id, conversationId, countSystemPrompt, head);
        expect(loaded).toEqual(await truth());
        expect(seqs(loaded.transcript).slice(-2)).toEqual([head.lastSeq - 1, head.lastSeq]);
      } finally {
        await gate.close();
      }
    });

    it("the final reply's statement answers the conversation's change version as a read after it gives it, pins and compactions counted", async () => {
      const { gate, stored } = await open("a question to pin");
      await setPinned(h.db, h.user.id, conversationId, stored.message.seq, true);
      const { version } = await gate.storeFinalReply({ role: "assistant", content: "a reply", tokenCount: 2, model: "gpt-4o-mini", status: "complete" });
      const read = await conversationChangeState(h.db, h.user.id, conversationId);
      expect(version).toBe(read.version);
      const [, , compactions, pins] = version.split(".").map(Number);
      expect(pins).toBeGreaterThan(0);
      expect(compactions).toBeGreaterThan(0);
      await setPinned(h.db, h.user.id, conversationId, stored.message.seq, false);
    });

    it("the turn's final reply, or a failed one it keeps, keeps the copy current", async () => {
      await expectCurrent();
      const { gate } = await open("a question");
      const { message: reply } = await gate.storeFinalReply({ role: "assistant", content: "a reply stored here", tokenCount: 5, model: "gpt-4o-mini", status: "complete" });
      expect(cachedContext(h.db, conversationId)).toMatchObject({ lastSeq: reply.seq });
      await expectCurrent();
      const failed = await appendReply(h.db, h.user.id, conversationId, {
        role: "assistant", content: "cut off", tokenCount: 3, model: "gpt-4o-mini", status: "error", error: "the model failed",
      });
      keepStored(h.db, conversationId, failed);
      expect(cachedContext(h.db, conversationId)).toMatchObject({ lastSeq: failed.head.lastSeq });
      expect((await expectCurrent()).messages.some((m) => m.seq === failed.head.lastSeq)).toBe(false);
    });

    it("an append nobody keeps leaves the copy as it was, and the next load reads it", async () => {
      const before = (await expectCurrent()).totalMessageCount;
      const [stored] = await append(h.db, "assistant", "stored outside a turn");
      expect(cachedContext(h.db, conversationId)).toMatchObject({ lastSeq: before });
      expect(seqs(await expectCurrent()).at(-1)).toBe(stored!.seq);
    });
  });

  it("hands out copies: changing a loaded transcript leaves the next one alone", async () => {
    const { transcript } = await load(h.db);
    const count = transcript.messages.length;
    transcript.messages.push({ seq: 999, role: "user", content: "not stored", tokens: 3, pinned: false });
    transcript.compactions.length = 0;
    expect(() => Object.assign(transcript.messages[0]!, { content: "changed" })).toThrow();
    expect((await load(h.db)).transcript.messages).toHaveLength(count);
    await expectCurrent();
  });
});
