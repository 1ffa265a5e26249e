// Organising conversations: pin, archive and rename (ownership, validation, updatedAt
// left alone), the sidebar's keyset pages, deleting one message (tool pairs together,
// refused inside a compaction, numbers kept, context version moved), the streamed bulk
// export and its import, and the Markdown import.
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { appendMessages } from "../../lib/db/messages";
import { bulkExportStream } from "../../lib/db/bulk-export";
import { exportConversation, exportMarkdown } from "../../lib/db/export";
import { importConversations } from "../../lib/db/import";
import { importMarkdownTranscript } from "../../lib/chat/markdown-import";
import { refusal, setupHarness } from "../support/harness";
import { signUp, type TestUser } from "../support/accounts";

const h = setupHarness();

async function conversationWith(user: TestUser, contents: string[], title = "organise") {
  const { id } = await ops.createConversation(user, { title, model: "gpt-4o-mini" });
  await appendMessages(
    h.db,
    user.id,
    id,
    contents.map((content, index) =>
      index % 2 === 0
        ? { role: "user" as const, content, tokenCount: 5 }
        : { role: "assistant" as const, content, tokenCount: 5, model: "gpt-4o-mini", status: "complete" as const },
    ),
  );
  return id;
}

const row = (id: string) => h.db.conversation.findUniqueOrThrow({ where: { id } });
const visible = async (id: string) =>
  (await h.db.message.findMany({ where: { conversationId: id, rewoundAt: null }, orderBy: { seq: "asc" } })).map((m) => m.seq);

describe("pin, archive, rename", () => {
  it("moves conversations between the pinned group, the main list and the archive without touching updatedAt", async () => {
    const user = await signUp();
    const older = await conversationWith(user, ["a", "b"], "older");
    const newer = await conversationWith(user, ["c", "d"], "newer");
    const before = await row(older);

    await ops.pinConversation(user, { conversationId: older, pinned: true });
    let page = await ops.conversationPage(user, {});
    expect(page.pinned.map((c) => c.id)).toEqual([older]);
    expect(page.items.map((c) => c.id)).toEqual([newer]);
    expect((await row(older)).updatedAt).toEqual(before.updatedAt);

    // Archiving unpins and leaves the main list; the archive holds it.
    await ops.archiveConversation(user, { conversationId: older, archived: true });
    page = await ops.conversationPage(user, {});
    expect(page.pinned).toEqual([]);
    expect(page.items.map((c) => c.id)).toEqual([newer]);
    const archive = await ops.conversationPage(user, { archived: true });
    expect(archive.items.map((c) => [c.id, c.archivedAt != null])).toEqual([[older, true]]);
    expect((await row(older)).updatedAt).toEqual(before.updatedAt);

    await ops.archiveConversation(user, { conversationId: older, archived: false });
    expect((await ops.conversationPage(user, {})).items.map((c) => c.id)).toEqual([newer, older]);

    await ops.renameConversation(user, { conversationId: older, title: "  Renamed inline  " });
    expect((await row(older)).title).toBe("Renamed inline");
    expect((await row(older)).updatedAt).toEqual(before.updatedAt);
  });

  it("search still finds an archived conversation, labelled", async () => {
    const user = await signUp();
    const id = await conversationWith(user, ["the zanzibarian walrus question", "an answer"]);
    await ops.archiveConversation(user, { conversationId: id, archived: true });
    const hits = await ops.search(user, { q: "zanzibarian" });
    expect(hits.map((hit) => [hit.conversationId, hit.conversationArchived])).toEqual([[id, true]]);
  });

  it("answers another user's id (and an unknown one) as not found, and changes nothing", async () => {
    const owner = await signUp();
    const stranger = await signUp();
    const id = await conversationWith(owner, ["mine", "yes"], "owner's title");
    for (const call of [
      () => ops.pinConversation(stranger, { conversationId: id, pinned: true }),
      () => ops.archiveConversation(stranger, { conversationId: id, archived: true }),
      () => ops.renameConversation(stranger, { conversationId: id, title: "taken" }),
      () => ops.deleteMessage(stranger, { conversationId: id, seq: 1 }),
      () => ops.pinConversation(owner, { conversationId: "0190b6a2-0000-7000-8000-000000000000", pinned: true }),
    ]) {
      expect((await refusal(call())).code).toBe("not_found");
    }
    const after = await row(id);
    expect([after.title, after.pinnedAt, after.archivedAt, after.hiddenMessageCount]).toEqual(["owner's title", null, null, 0]);
    expect((await ops.conversationPage(stranger, {})).items).toEqual([]);
  });

  it("refuses bad input with a clear message", async () => {
    const user = await signUp();
    const id = await conversationWith(user, ["x", "y"]);
    expect((await refusal(ops.renameConversation(user, { conversationId: id, title: "   " }))).message).toMatch(/title is empty/);
    expect((await refusal(ops.renameConversation(user, { conversationId: id, title: "x".repeat(201) }))).message).toMatch(/longer than 200/);
    expect((await refusal(ops.renameConversation(user, { conversationId: id, title: "two\nlines" }))).message).toMatch(/control characters/);
    expect((await refusal(ops.renameConversation(user, { conversationId: "nope", title: "t" }))).code).toBe("invalid_input");
    expect((await refusal(ops.pinConversation(user, { conversationId: id, pinned: "yes" }))).code).toBe("invalid_input");
    expect((await refusal(ops.conversationPage(user, { after: "garbage" }))).message).toMatch(/page cursor/);
    expect((await row(id)).title).toBe("organise");
    // 200 characters is allowed.
    await ops.renameConversation(user, { conversationId: id, title: "t".repeat(200) });
    expect((await row(id)).title).toHaveLength(200);
  });

  it("pages through many conversations by keyset: every one once, newest first", async () => {
    const user = await signUp();
    const base = Date.UTC(2026, 0, 1);
    // Ties on updatedAt too: the id breaks them the same way on every page.
    await h.db.conversation.createMany({
      data: Array.from({ length: 250 }, (_, index) => ({ userId: user.id, title: `c${index}`, model: "m", updatedAt: new Date(base + Math.floor(index / 3) * 1000) })),
    });
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await ops.conversationPage(user, { limit: 40, ...(after ? { after } : {}) });
      seen.push(...page.items.map((c) => c.id));
      after = page.next ?? undefined;
      pages++;
    } while (after);
    expect(pages).toBe(7);
    expect(new Set(seen).size).toBe(250);
    const all = await h.db.conversation.findMany({ where: { userId: user.id }, orderBy: [{ updatedAt: "desc" }, { id: "desc" }], select: { id: true } });
    expect(seen).toEqual(all.map((c) => c.id));
  });
});

describe("delete one message", () => {
  it("hides the message, keeps every number, and moves the counts and versions", async () => {
    const user = h.user;
    const id = await conversationWith(user, ["q1", "a1", "q2", "a2", "q3", "a3"]);
    const before = await row(id);
    expect(await ops.deleteMessage(user, { conversationId: id, seq: 3 })).toEqual({ seqs: [3] });
    expect(await visible(id)).toEqual([1, 2, 4, 5, 6]);
    const after = await row(id);
    expect(after.contextVersion).toBeGreaterThan(before.contextVersion);
    expect(after.historyVersion).toBe(before.historyVersion + 1);
    expect((await ops.getConversation(user, id)).messageCount).toBe(5);
    // The next message still gets a new number, never a reused one.
    const [next] = await appendMessages(h.db, user.id, id, [{ role: "user", content: "q4", tokenCount: 5 }]);
    expect(next!.seq).toBe(7);
    // Export stays consistent: the deleted message is listed as rewound (hidden), the Markdown leaves it out.
    const doc = await exportConversation(h.db, user.id, id);
    expect(doc.messages.find((m) => m.seq === 3)?.rewound).toBe(true);
    expect(await exportMarkdown(doc)).not.toContain("#### You · #3");
    // Deleting it again: not found.
    expect((await refusal(ops.deleteMessage(user, { conversationId: id, seq: 3 }))).code).toBe("not_found");
    expect((await refusal(ops.deleteMessage(user, { conversationId: id, seq: 99 }))).code).toBe("not_found");
  });

  it("deletes a tool call with all its results, from either side", async () => {
    const user = h.user;
    const make = async () => {
      const { id } = await ops.createConversation(user, { title: "tools", model: "gpt-4o-mini" });
      await appendMessages(h.db, user.id, id, [
        { role: "user", content: "look it up", tokenCount: 5 },
        {
          role: "assistant",
          content: "",
          tokenCount: 5,
          model: "gpt-4o-mini",
          status: "complete",
          toolCalls: [
            { id: "call_a", name: "lookup", arguments: "{}" },
            { id: "call_b", name: "lookup", arguments: "{}" },
          ],
        },
      ]);
      // Results are stored after their call, as a turn stores them.
      await appendMessages(h.db, user.id, id, [
        { role: "tool", content: "result a", tokenCount: 5, toolCallId: "call_a", toolName: "lookup", outcome: "done" },
        { role: "tool", content: "result b", tokenCount: 5, toolCallId: "call_b", toolName: "lookup", outcome: "done" },
        { role: "assistant", content: "the answer", tokenCount: 5, model: "gpt-4o-mini", status: "complete" },
      ]);
      return id;
    };
    const fromResult = await make();
    expect(await ops.deleteMessage(user, { conversationId: fromResult, seq: 4 })).toEqual({ seqs: [2, 3, 4] });
    expect(await visible(fromResult)).toEqual([1, 5]);
    const fromCall = await make();
    expect(await ops.deleteMessage(user, { conversationId: fromCall, seq: 2 })).toEqual({ seqs: [2, 3, 4] });
    expect(await visible(fromCall)).toEqual([1, 5]);
    expect((await row(fromCall)).hiddenMessageCount).toBe(3);
  });

  it("refuses a message inside an active compaction, saying which, and deletes nothing", async () => {
    const user = h.user;
    const id = await conversationWith(user, ["q1", "a1", "q2", "a2", "q3", "a3"]);
    await h.db.compaction.create({
      data: {
        conversationId: id, level: 1, kind: "summary", trigger: "manual", strategy: "ai_summary", fromSeq: 1, toSeq: 4, title: "Early questions",
        summary: "Two questions and answers.", summaryTokens: 4, coveredMessageCount: 4, coveredTokens: 20,
        messagesBefore: 6, messagesAfter: 3, tokensBefore: 30, tokensAfter: 14, durationMs: 1,
      },
    });
    const before = await row(id);
    const error = await refusal(ops.deleteMessage(user, { conversationId: id, seq: 2 }));
    expect(error.code).toBe("conflict");
    expect(error.message).toMatch(/#2 is inside the compressed range #1–#4 \(“Early questions”\).*Nothing was deleted/);
    expect(await visible(id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await row(id)).hiddenMessageCount).toBe(before.hiddenMessageCount);
    // Outside the range it goes.
    await ops.deleteMessage(user, { conversationId: id, seq: 5 });
    expect(await visible(id)).toEqual([1, 2, 3, 4, 6]);
  });
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    text += decoder.decode(next.value, { stream: true });
    chunks++;
  }
  return { text: text + decoder.decode(), chunks };
}

describe("bulk export and import", () => {
  it("streams every conversation as one array, one piece per conversation, and imports it back", async () => {
    const user = await signUp();
    const ids = [await conversationWith(user, ["one", "uno"], "first"), await conversationWith(user, ["two", "dos", "three"], "second")];
    await ops.deleteMessage(user, { conversationId: ids[1]!, seq: 2 });
    const { text, chunks } = await readAll(bulkExportStream(h.db, user.id));
    // "[", one piece per conversation, "]": the file is never built whole.
    expect(chunks).toBe(4);
    const docs = JSON.parse(text) as { conversation: { title: string }; messages: { content: string; rewound: boolean }[] }[];
    expect(docs.map((d) => d.conversation.title)).toEqual(["first", "second"]);

    const importer = await signUp();
    const stored = await importConversations(h.db, importer.id, [new TextEncoder().encode(text)]);
    expect(stored.map((c) => [c.title, c.messageCount])).toEqual([
      ["first (imported)", 2],
      ["second (imported)", 2],
    ]);
    const again = JSON.parse(await readAll(bulkExportStream(h.db, importer.id)).then((r) => r.text)) as typeof docs;
    expect(again.map((d) => d.messages.map((m) => [m.content, m.rewound]))).toEqual(docs.map((d) => d.messages.map((m) => [m.content, m.rewound])));
  });

  it("keeps the conversations before a refused one and says how many (one transaction per conversation)", async () => {
    const user = await signUp();
    await conversationWith(user, ["kept", "yes"], "good");
    const { text } = await readAll(bulkExportStream(h.db, user.id));
    const [good] = JSON.parse(text) as Record<string, unknown>[];
    const broken = { ...good, messages: [{ seq: 1 }] };
    const importer = await signUp();
    const error = await refusal(importConversations(h.db, importer.id, [new TextEncoder().encode(JSON.stringify([good, broken, good]))]));
    expect(error.message).toMatch(/^1 conversation was imported; conversation 2 and any after it were not\./);
    expect(await h.db.conversation.count({ where: { userId: importer.id } })).toBe(1);
    expect((await refusal(importConversations(h.db, importer.id, [new TextEncoder().encode("[]")]))).message).toMatch(/holds no conversation/);
  });
});

describe("Markdown import", () => {
  it("round-trips Strata's own Markdown export, compactions and HTML-looking text included", async () => {
    const user = h.user;
    const contents = ["Hello <b>there</b> & welcome", "A reply with code:\n\n```ts\n#### You · #9\nconst a = 1 < 2;\n```", "third", "fourth", "fifth", "sixth"];
    const id = await conversationWith(user, contents, "Round <trip> & back");
    await h.db.compaction.create({
      data: {
        conversationId: id, level: 1, kind: "summary", trigger: "manual", strategy: "ai_summary", fromSeq: 1, toSeq: 2,
        summary: "The greeting.", summaryTokens: 4, coveredMessageCount: 2, coveredTokens: 10,
        messagesBefore: 6, messagesAfter: 5, tokensBefore: 30, tokensAfter: 24, durationMs: 1,
      },
    });
    await ops.pinMessage(user, { conversationId: id, seq: 4, pinned: true });
    const markdown = (await ops.exportConversation(user, { conversationId: id, format: "markdown" })).body;
    const copy = await importMarkdownTranscript(h.db, user.id, markdown);
    expect(copy.title).toBe("Round <trip> & back (imported)");
    const messages = await h.db.message.findMany({ where: { conversationId: copy.id }, orderBy: { seq: "asc" } });
    expect(messages.map((m) => [m.role, m.content, m.pinned])).toEqual(contents.map((content, index) => [index % 2 === 0 ? "user" : "assistant", content, index === 3]));
    expect(messages.every((m) => m.tokenCount > 0)).toBe(true);
  });

  it("reads the common ## User / **Assistant:** shapes and refuses anything else", async () => {
    const user = h.user;
    const headed = await importMarkdownTranscript(h.db, user.id, "# Trip plan\n\n## User\n\nWhere to go?\n\n## Assistant\n\nLisbon.\n\n```\n## User\n```\n");
    const rows = await h.db.message.findMany({ where: { conversationId: headed.id }, orderBy: { seq: "asc" } });
    expect(headed.title).toBe("Trip plan (imported)");
    expect(rows.map((m) => [m.seq, m.role, m.content])).toEqual([
      [1, "user", "Where to go?"],
      [2, "assistant", "Lisbon.\n\n```\n## User\n```"],
    ]);
    const bold = await importMarkdownTranscript(h.db, user.id, "**User:** hi\nthere\n\n**Assistant:** hello");
    expect((await h.db.message.findMany({ where: { conversationId: bold.id }, orderBy: { seq: "asc" } })).map((m) => m.content)).toEqual(["hi\nthere", "hello"]);
    const error = await refusal(importMarkdownTranscript(h.db, user.id, "just some notes\n\n- a list"));
    expect(error.message).toMatch(/no messages were found.*## User/);
  });
});
