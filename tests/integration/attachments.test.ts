// Attachments end to end against the outside model (tests/support/outside-model, which
// shares nothing with the app): upload through the route, send, and what the model
// received; limits; ownership; search; export and import.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { collect, newConversation, saveTestSettings, send, setupHarness } from "../support/harness";
import { backgroundSettled } from "../../lib/chat/compressor";
import { bearer, signUp, withEnv } from "../support/accounts";
import { startOutsideModel, type OutsideModel, type RecordedRequest } from "../support/outside-model/server";
import { countText, textOf } from "../support/outside-model/behaviour";
import { tinyPdf } from "../support/tiny-pdf";
import * as uploadRoute from "../../app/api/conversations/[id]/attachments/route";
import * as fileRoute from "../../app/api/attachments/[id]/route";
import * as messagesRoute from "../../app/api/conversations/[id]/messages/route";

const h = setupHarness();
let outside: OutsideModel;
let auth: Record<string, string>;
const MODEL = "outside-attach";

beforeAll(async () => {
  outside = await startOutsideModel({ summaryMode: "terse", seed: 3 });
  process.env.OPENAI_BASE_URL = outside.url;
  auth = await bearer(h.user);
});
beforeEach(() => outside.reset());
afterAll(async () => {
  await outside.close();
});

type Uploaded = { status: number; body: { attachment?: { id: string; tokenCount: number; mediaType: string; size: number }; error?: { code: string; message: string } } };

async function upload(conversationId: string, name: string, bytes: Uint8Array | string, headers = auth): Promise<Uploaded> {
  const request = new Request(`http://localhost/api/conversations/${conversationId}/attachments?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/octet-stream" },
    body: typeof bytes === "string" ? bytes : Buffer.from(bytes),
  });
  const response = await uploadRoute.POST(request, { params: Promise.resolve({ id: conversationId }) });
  return { status: response.status, body: (await response.json()) as Uploaded["body"] };
}

function lastChat(): RecordedRequest {
  const chats = outside.requests().filter((request) => request.kind === "chat");
  expect(chats.length).toBeGreaterThan(0);
  return chats.at(-1)!;
}

const lastUserText = (request: RecordedRequest) =>
  textOf((request.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === "user").at(-1)?.content);

async function sendWith(conversationId: string, content: string, attachmentIds: string[]) {
  return collect(await ops.startTurn(h.user, { conversationId, content, attachmentIds }));
}

describe("attachments", () => {
  it("a Markdown file's text reaches the model inside the message, fenced and named, and is counted with it", async () => {
    const conversation = await newConversation(MODEL);
    const markdown = "# Trip plan\n\nThe ferry to Vis leaves at 09:40 from pier 7.\n\n```js\nconsole.log(1)\n```\n";
    const uploaded = await upload(conversation.id, "plan.md", markdown);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.attachment).toMatchObject({ mediaType: "text/markdown", size: Buffer.byteLength(markdown) });
    const events = await sendWith(conversation.id, "When does the ferry leave?", [uploaded.body.attachment!.id]);
    expect(events.find((event) => event.type === "error")).toBeUndefined();

    const seen = lastUserText(lastChat());
    expect(seen).toContain("When does the ferry leave?");
    expect(seen).toContain("Attached file: plan.md");
    expect(seen).toContain("The ferry to Vis leaves at 09:40 from pier 7.");
    // The file's own ``` fence cannot close the block it sits in.
    expect(seen).toContain("````\n# Trip plan");

    // What was stored is what the model saw, and the count covers all of it: the outside
    // model's own count of the message (4 chars a token) is in line with ours.
    const stored = await h.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, role: "user" } });
    expect(stored.content).toBe(seen);
    expect(stored.tokenCount).toBeGreaterThan(uploaded.body.attachment!.tokenCount);
    expect(stored.tokenCount).toBeGreaterThan(countText(seen) / 3);
    expect(stored.tokenCount).toBeLessThan(countText(seen) * 3);
    const row = await h.db.attachment.findFirstOrThrow({ where: { id: uploaded.body.attachment!.id } });
    expect(row.messageId).toBe(stored.id);
    expect(stored.content.slice(row.contentStart!)).toMatch(/^Attached file: plan\.md\n/);

    // The chips list and the original bytes, as a download.
    const listed = await ops.conversationAttachments(h.user, conversation.id);
    expect(listed.map((attachment) => attachment.name)).toEqual(["plan.md"]);
    const download = await fileRoute.GET(new Request(`http://localhost/api/attachments/${row.id}`, { headers: auth }), { params: Promise.resolve({ id: row.id }) });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="plan\.md"/);
    expect(download.headers.get("content-type")).not.toMatch(/html/);
    expect(await download.text()).toBe(markdown);

    // Search reaches the file's words.
    const hits = await ops.search(h.user, { q: "ferry pier", conversationId: conversation.id });
    expect(hits.length).toBeGreaterThan(0);
  });

  it("the messages route takes attachmentIds too, and a PDF is sent as its text layer", async () => {
    const conversation = await newConversation(MODEL);
    const uploaded = await upload(conversation.id, "report.pdf", tinyPdf(["Quarterly revenue rose 12 percent.", "Costs fell in Zagreb."]));
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.attachment!.mediaType).toBe("application/pdf");
    const response = await messagesRoute.POST(
      new Request(`http://localhost/api/conversations/${conversation.id}/messages`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ content: "Summarise the report", attachmentIds: [uploaded.body.attachment!.id] }),
      }),
      { params: Promise.resolve({ id: conversation.id }) },
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const seen = lastUserText(lastChat());
    expect(seen).toContain("Attached file: report.pdf");
    expect(seen).toContain("Quarterly revenue rose 12 percent.");
    expect(seen).toContain("Costs fell in Zagreb.");
  });

  it("refuses a file over STRATA_ATTACHMENT_MAX_BYTES with 413 and stores nothing; an empty or binary file or a PDF without text with a clear 400", async () => {
    const conversation = await newConversation(MODEL);
    const before = await h.db.attachment.count({ where: { conversationId: conversation.id } });
    const big = await withEnv({ STRATA_ATTACHMENT_MAX_BYTES: "1000" }, () => upload(conversation.id, "big.txt", "x".repeat(1001)));
    expect(big.status).toBe(413);
    expect(big.body.error!.message).toMatch(/larger than the attachment limit/);
    const exact = await withEnv({ STRATA_ATTACHMENT_MAX_BYTES: "1000" }, () => upload(conversation.id, "fits.txt", "x".repeat(1000)));
    expect(exact.status).toBe(201);
    await ops.removeAttachment(h.user, exact.body.attachment!.id);

    const empty = await upload(conversation.id, "empty.md", "");
    expect(empty.status).toBe(400);
    expect(empty.body.error!.message).toMatch(/empty/);
    const binary = await upload(conversation.id, "blob.bin", new Uint8Array([0, 1, 2, 3, 255, 254, 0, 7]));
    expect(binary.status).toBe(400);
    expect(binary.body.error!.message).toMatch(/not a file Strata can read/);
    const scanned = await upload(conversation.id, "scan.pdf", tinyPdf([""]));
    expect(scanned.status).toBe(400);
    expect(scanned.body.error!.message).toMatch(/no text layer/);
    expect(await h.db.attachment.count({ where: { conversationId: conversation.id } })).toBe(before);
  });

  it("another user's attachment is not found: not downloadable, not sendable, not removable", async () => {
    const conversation = await newConversation(MODEL);
    const uploaded = await upload(conversation.id, "secret.txt", "the vault code is 4471");
    const id = uploaded.body.attachment!.id;
    const other = await signUp();
    const otherAuth = await bearer(other);
    const download = await fileRoute.GET(new Request(`http://localhost/api/attachments/${id}`, { headers: otherAuth }), { params: Promise.resolve({ id }) });
    expect(download.status).toBe(404);
    expect(await download.text()).not.toContain("4471");
    // Their own conversation, with my attachment's id: refused, and no message is stored.
    const theirs = await ops.createConversation(other, { title: "theirs", model: MODEL });
    await expect(ops.startTurn(other, { conversationId: theirs.id, content: "read it", attachmentIds: [id] })).rejects.toMatchObject({ code: "not_found" });
    expect(await h.db.message.count({ where: { conversationId: theirs.id } })).toBe(0);
    await expect(ops.removeAttachment(other, id)).rejects.toMatchObject({ code: "not_found" });
    // Uploading into my conversation is refused too.
    const intoMine = await upload(conversation.id, "x.txt", "hello", otherAuth);
    expect(intoMine.status).toBe(404);
    // An attachment is sent once: a second message cannot carry it again.
    await sendWith(conversation.id, "first", [id]);
    await expect(ops.startTurn(h.user, { conversationId: conversation.id, content: "again", attachmentIds: [id] })).rejects.toMatchObject({ code: "not_found" });
  });

  it("export and import carry the file's text in the message and the original file (base64), within the limit", async () => {
    const conversation = await newConversation(MODEL);
    const uploaded = await upload(conversation.id, "data.csv", "city,population\nSplit,160577\n");
    await sendWith(conversation.id, "Which city?", [uploaded.body.attachment!.id]);
    const exported = await ops.exportConversation(h.user, { conversationId: conversation.id, format: "json" });
    expect(exported.body).toContain("Split,160577");
    const imported = await ops.importConversation(h.user, JSON.parse(exported.body) as unknown);
    const copy = await h.db.message.findFirstOrThrow({ where: { conversationId: imported.id, role: "user" } });
    expect(copy.content).toContain("Attached file: data.csv");
    expect(copy.content).toContain("Split,160577");
    // The original file came along: listed as the copy's chip, downloadable.
    const [chip] = await ops.conversationAttachments(h.user, imported.id);
    expect(chip).toMatchObject({ name: "data.csv", messageId: copy.id, contentStart: expect.any(Number) });
    expect(new TextDecoder().decode((await ops.downloadAttachment(h.user, chip!.id)).bytes)).toBe("city,population\nSplit,160577\n");

    // A file over the attachment limit is refused by the importer, and nothing is stored.
    const doc = JSON.parse(exported.body) as { messages: { attachments: { data: string }[] }[] };
    doc.messages[0]!.attachments[0]!.data = Buffer.from("x".repeat(2000)).toString("base64");
    const before = await h.db.conversation.count();
    await withEnv({ STRATA_ATTACHMENT_MAX_BYTES: "1000" }, async () => {
      await expect(ops.importConversation(h.user, doc)).rejects.toThrow(/larger than the attachment limit/);
    });
    expect(await h.db.conversation.count()).toBe(before);
  });

  it("a large file fills the window like any message and is compressed like one: summarized, nothing over the window, the original kept", async () => {
    const window = 4096;
    await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: window } });
    outside.configure({ contextWindow: window });
    try {
      const conversation = await newConversation(MODEL);
      const lines = Array.from({ length: 120 }, (_, i) => `Line ${i}: shipment ${1000 + i} went to depot ${i % 7} on schedule.`);
      const uploaded = await upload(conversation.id, "log.txt", lines.join("\n"));
      expect(uploaded.body.attachment!.tokenCount).toBeGreaterThan(window / 4);
      await sendWith(conversation.id, "Read the shipment log.", [uploaded.body.attachment!.id]);
      for (let turn = 0; turn < 8; turn++) {
        const events = await send(conversation.id, `Next question number ${turn} about something else entirely, please answer briefly. <<reply 150>>`);
        expect(events.find((event) => event.type === "error"), `turn ${turn}`).toBeUndefined();
        await backgroundSettled(conversation.id);
      }
      // The message with the file (seq 1) is inside a summary now, and no request passed the window by the model's own count.
      const covering = await h.db.compaction.findMany({ where: { conversationId: conversation.id, fromSeq: { lte: 1 }, toSeq: { gte: 1 } } });
      expect(covering.length).toBeGreaterThan(0);
      expect(outside.stats().overWindow).toBe(0);
      const latest = lastUserText(lastChat());
      expect(latest).not.toContain("Attached file: log.txt");
      // Nothing lost: the stored message and the original file are intact.
      const first = await h.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, seq: 1 } });
      expect(first.content).toContain("Line 119: shipment 1119 went to depot 0 on schedule.");
    } finally {
      await saveTestSettings(h.db, {});
      outside.configure({ contextWindow: undefined });
    }
  }, 120_000);

  it("a file with more text than a message may hold: the message keeps its start and end, the user is told, the file stays whole", async () => {
    const conversation = await newConversation(MODEL);
    const lines = Array.from({ length: 3000 }, (_, i) => `Entry ${i}: shipment ${100_000 + i} reached depot ${i % 9}.`);
    const file = lines.join("\n");
    const uploaded = await withEnv({ STRATA_MAX_MESSAGE_CHARS: "20000" }, () => upload(conversation.id, "ledger.txt", file));
    expect(uploaded.status).toBe(201);
    const id = uploaded.body.attachment!.id;
    const events = await withEnv({ STRATA_MAX_MESSAGE_CHARS: "20000" }, () => sendWith(conversation.id, "What is in the ledger?", [id]));
    const notices = events.flatMap((event) => (event.type === "notice" ? [event.message] : []));
    expect(notices).toEqual([expect.stringMatching(/^“ledger\.txt” has [\d,]+ characters of text, more than a message holds \(20,000 characters in all, STRATA_MAX_MESSAGE_CHARS\): the message keeps [\d,]+ of them, from its start and its end/)]);
    expect(events.at(-1)?.type, JSON.stringify(events.at(-1))).toBe("done");
    // The model read the start and the end, not the middle.
    const seen = lastUserText(lastChat());
    expect(seen).toContain("Entry 0: shipment 100000 reached depot 0.");
    expect(seen).toContain("Entry 2999: shipment 102999 reached depot 2.");
    expect(seen).not.toContain("Entry 1500:");
    expect(seen).toMatch(/characters of ledger\.txt left out of the message here; the whole file stays attached/);
    const stored = await h.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, role: "user" } });
    expect(stored.content.length).toBeLessThanOrEqual(20_000);
    // The file itself is whole.
    const download = await fileRoute.GET(new Request(`http://localhost/api/attachments/${id}`, { headers: auth }), { params: Promise.resolve({ id }) });
    expect(await download.text()).toBe(file);
  });
});
