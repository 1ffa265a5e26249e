// Images end to end against the outside model (tests/support/outside-model, which reads
// image parts with its own code): a vision model receives the image as a part of the
// user message, counted in the meter; a text-only model is refused with a clear message
// and nothing is lost; a summary request carries the line standing for the image, never
// its bytes. Also: a message of files only, and the title a message with files gives.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { collect, newConversation, saveTestSettings, send, setupHarness } from "../support/harness";
import { backgroundSettled } from "../../lib/chat/compressor";
import { bearer, signUp } from "../support/accounts";
import { startOutsideModel, type OutsideModel, type RecordedRequest } from "../support/outside-model/server";
import { textOf } from "../support/outside-model/behaviour";
import { pngHeader, tinyPng } from "../support/tiny-image";
import { writeImageModelLists } from "../../lib/db/model-settings";
import { DEFAULT_TITLE } from "../../lib/db/conversations";
import * as uploadRoute from "../../app/api/conversations/[id]/attachments/route";
import * as fileRoute from "../../app/api/attachments/[id]/route";
import * as sharedFilesRoute from "../../app/api/shared/[token]/attachments/route";
import * as sharedFileRoute from "../../app/api/shared/[token]/attachments/[id]/route";

const h = setupHarness();
let outside: OutsideModel;
let auth: Record<string, string>;
const VISION = "outside-vision";
const TEXT_ONLY = "outside-text";

beforeAll(async () => {
  outside = await startOutsideModel({ summaryMode: "terse", seed: 5, imageModels: [VISION] });
  process.env.OPENAI_BASE_URL = outside.url;
  auth = await bearer(h.user);
  // The admin's word: the outside model's vision model takes images (no built-in guess knows the name).
  await writeImageModelLists(h.db, { imageModels: [VISION], textOnlyModels: [] });
});
beforeEach(() => outside.reset());
afterAll(async () => {
  await writeImageModelLists(h.db, { imageModels: [], textOnlyModels: [] });
  await outside.close();
});

type Uploaded = { status: number; body: { attachment?: { id: string; tokenCount: number; mediaType: string }; error?: { code: string; message: string } } };

async function upload(conversationId: string, name: string, bytes: Uint8Array | string, headers = auth): Promise<Uploaded> {
  const response = await uploadRoute.POST(
    new Request(`http://localhost/api/conversations/${conversationId}/attachments?name=${encodeURIComponent(name)}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/octet-stream" },
      body: typeof bytes === "string" ? bytes : Buffer.from(bytes),
    }),
    { params: Promise.resolve({ id: conversationId }) },
  );
  return { status: response.status, body: (await response.json()) as Uploaded["body"] };
}

const chats = () => outside.requests().filter((request) => request.kind === "chat");
const summaries = () => outside.requests().filter((request) => request.kind === "summary");
const messagesOf = (request: RecordedRequest) => (request.body as { messages: { role: string; content: unknown }[] }).messages;

async function sendWith(conversationId: string, content: string, attachmentIds: string[]) {
  return collect(await ops.startTurn(h.user, { conversationId, content, attachmentIds }));
}

describe("images", () => {
  it("a vision model receives the image as a part of the user's message, and the stored count includes what the image costs", async () => {
    const conversation = await newConversation(VISION);
    const uploaded = await upload(conversation.id, "photo.png", tinyPng(800, 600));
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.attachment).toMatchObject({ mediaType: "image/png", tokenCount: 765 });
    const events = await sendWith(conversation.id, "What is in the picture?", [uploaded.body.attachment!.id]);
    expect(events.find((event) => event.type === "error")).toBeUndefined();

    const [request] = chats();
    const user = messagesOf(request!).findLastIndex((message) => message.role === "user");
    // The outside model read one PNG of 800×600 on the user's message, and priced it by its own rule.
    expect(request!.images).toEqual([expect.objectContaining({ message: user, mediaType: "image/png", width: 800, height: 600, detail: "high", tokens: 765 })]);
    expect(textOf(messagesOf(request!)[user]!.content)).toBe("What is in the picture?\n\n[image: photo.png, 800×600]");

    // Our count of the message holds the image's 765 tokens beside its text, and our
    // count of the whole request is within reach of the model's own.
    const stored = await h.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, role: "user" } });
    expect(stored.content).toBe("What is in the picture?\n\n[image: photo.png, 800×600]");
    expect(stored.tokenCount).toBeGreaterThan(765);
    expect(stored.tokenCount).toBeLessThan(765 + 40);
    const reply = await h.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, role: "assistant" } });
    expect(reply.requestTokens!).toBeGreaterThan(request!.promptTokens * 0.7);
    expect(reply.requestTokens!).toBeLessThan(request!.promptTokens * 1.3);

    // The next turn still shows the model the image (it is in the context).
    await send(conversation.id, "And its colour?");
    expect(chats().at(-1)!.images).toHaveLength(1);

    // The owner sees it in place; anyone else gets 404, as for any attachment.
    const id = uploaded.body.attachment!.id;
    const shown = await fileRoute.GET(new Request(`http://localhost/api/attachments/${id}?view=inline`, { headers: auth }), { params: Promise.resolve({ id }) });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toBe("image/png");
    expect(shown.headers.get("content-disposition")).toMatch(/^inline; filename="photo\.png"/);
    const other = await bearer(await signUp());
    const theirs = await fileRoute.GET(new Request(`http://localhost/api/attachments/${id}?view=inline`, { headers: other }), { params: Promise.resolve({ id }) });
    expect(theirs.status).toBe(404);
  });

  it("a model that does not take images: refused at upload with a clear message, and at send when the model changed since; nothing is lost", async () => {
    const textOnly = await newConversation(TEXT_ONLY);
    const refused = await upload(textOnly.id, "photo.png", tinyPng(64, 64));
    expect(refused.status).toBe(400);
    expect(refused.body.error!.message).toMatch(/“photo\.png” is an image, and outside-text does not take images/);
    expect(await h.db.attachment.count({ where: { conversationId: textOnly.id } })).toBe(0);

    // Uploaded while the model took images; the model changed before the send.
    const changed = await newConversation(VISION);
    const uploaded = await upload(changed.id, "photo.png", tinyPng(64, 64));
    expect(uploaded.status).toBe(201);
    await ops.updateModelSettings(h.user, { conversationId: changed.id, model: TEXT_ONLY });
    await expect(sendWith(changed.id, "Look", [uploaded.body.attachment!.id])).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(/does not take images/) });
    expect(await h.db.message.count({ where: { conversationId: changed.id } })).toBe(0);
    expect(chats()).toHaveLength(0);
    // The upload is still there, unsent, for when a vision model is picked again.
    await ops.updateModelSettings(h.user, { conversationId: changed.id, model: VISION });
    const events = await sendWith(changed.id, "Look", [uploaded.body.attachment!.id]);
    expect(events.find((event) => event.type === "error")).toBeUndefined();
    expect(chats().at(-1)!.images).toHaveLength(1);
  });

  it("an image past the pixel bounds or with a damaged header is refused with a clear message", async () => {
    const conversation = await newConversation(VISION);
    const huge = await upload(conversation.id, "huge.png", pngHeader(9000, 100));
    expect(huge.status).toBe(400);
    expect(huge.body.error!.message).toMatch(/“huge\.png” is 9000×100 pixels: images may be at most 8192 pixels a side/);
    const cut = await upload(conversation.id, "cut.png", pngHeader(10, 10).subarray(0, 18));
    expect(cut.status).toBe(400);
    expect(cut.body.error!.message).toMatch(/could not be read as an image/);
  });

  it("a message may be files only, and a first message with files is named from what was typed, else from the first file", async () => {
    const filesOnly = await ops.createConversation(h.user, { title: DEFAULT_TITLE, model: VISION });
    const image = await upload(filesOnly.id, "diagram.png", tinyPng(32, 32));
    const events = await sendWith(filesOnly.id, "", [image.body.attachment!.id]);
    expect(events.find((event) => event.type === "error")).toBeUndefined();
    expect(events).toContainEqual({ type: "title", title: "diagram.png" });
    const stored = await h.db.message.findFirstOrThrow({ where: { conversationId: filesOnly.id, role: "user" } });
    expect(stored.content).toBe("[image: diagram.png, 32×32]");
    // Without files an empty message is still refused.
    await expect(ops.startTurn(h.user, { conversationId: filesOnly.id, content: "  " })).rejects.toMatchObject({ code: "invalid_input" });

    const typed = await ops.createConversation(h.user, { title: DEFAULT_TITLE, model: VISION });
    const file = await upload(typed.id, "notes.md", "# Budget\n\nThe budget for the ferry is 400 euros.\n");
    const named = await sendWith(typed.id, "Plan the trip", [file.body.attachment!.id]);
    expect(named).toContainEqual({ type: "title", title: "Plan the trip" });
  });

  it("compressing messages with an image: the summary request reads the line standing for it, never the bytes; the original stays", async () => {
    const window = 4096;
    await saveTestSettings(h.db, { contextWindowOverrides: { [VISION]: window } });
    outside.configure({ contextWindow: window });
    try {
      const conversation = await newConversation(VISION);
      const uploaded = await upload(conversation.id, "chart.png", tinyPng(1024, 1024));
      expect(uploaded.body.attachment!.tokenCount).toBe(765);
      await sendWith(conversation.id, "The chart shows sales of 4471 units in March.", [uploaded.body.attachment!.id]);
      for (let turn = 0; turn < 10; turn++) {
        const events = await send(conversation.id, `Question ${turn} about something else, answer briefly. <<reply 400>>`);
        expect(events.find((event) => event.type === "error"), `turn ${turn}`).toBeUndefined();
        await backgroundSettled(conversation.id);
      }
      const covering = await h.db.compaction.findMany({ where: { conversationId: conversation.id, fromSeq: { lte: 1 }, toSeq: { gte: 1 } } });
      expect(covering.length).toBeGreaterThan(0);
      expect(summaries().length).toBeGreaterThan(0);
      for (const request of summaries()) {
        expect(request.images).toEqual([]);
        expect(JSON.stringify(request.body)).not.toContain("base64,");
      }
      expect(summaries().some((request) => JSON.stringify(request.body).includes("[image: chart.png, 1024×1024]"))).toBe(true);
      // The image went with the chat requests while its message was in view, and no request passed the window by the model's own count.
      expect(chats()[0]!.images).toHaveLength(1);
      expect(chats().at(-1)!.images).toEqual([]);
      expect(outside.stats().overWindow).toBe(0);
      // The original is kept, and still listed for the timeline.
      const listed = await ops.conversationAttachments(h.user, conversation.id);
      expect(listed.map((attachment) => attachment.name)).toEqual(["chart.png"]);
    } finally {
      await saveTestSettings(h.db, {});
    }
  }, 120_000);

  it("a shared link shows the conversation's files as the owner sees them, and reaches no other file", async () => {
    const conversation = await newConversation(VISION);
    const image = await upload(conversation.id, "shared.png", tinyPng(64, 48));
    const report = await upload(conversation.id, "notes.md", "# Notes\nThe plan.");
    await sendWith(conversation.id, "Look at these", [image.body.attachment!.id, report.body.attachment!.id]);
    const unsent = await upload(conversation.id, "later.png", tinyPng(8, 8));
    const elsewhere = await newConversation(VISION);
    const other = await upload(elsewhere.id, "other.png", tinyPng(8, 8));
    await sendWith(elsewhere.id, "Another one", [other.body.attachment!.id]);
    const { token, link } = await ops.createShareLink(h.user, { conversationId: conversation.id, expiresInDays: null });

    const list = await sharedFilesRoute.GET(new Request(`http://localhost/api/shared/${token}/attachments`), { params: Promise.resolve({ token }) });
    expect(list.status).toBe(200);
    const { attachments } = (await list.json()) as { attachments: { id: string; name: string }[] };
    expect(attachments.map((attachment) => attachment.name)).toEqual(["shared.png", "notes.md"]);

    const file = (id: string, query = "") =>
      sharedFileRoute.GET(new Request(`http://localhost/api/shared/${token}/attachments/${id}${query}`), { params: Promise.resolve({ token, id }) });
    const shown = await file(image.body.attachment!.id, "?view=inline");
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toBe("image/png");
    expect(shown.headers.get("content-disposition")).toMatch(/^inline/);
    expect(shown.headers.get("referrer-policy")).toBe("no-referrer");
    expect(Buffer.from(await shown.arrayBuffer()).equals(Buffer.from(tinyPng(64, 48)))).toBe(true);
    // A text file is a download, never shown in place.
    expect((await file(report.body.attachment!.id, "?view=inline")).headers.get("content-disposition")).toMatch(/^attachment/);
    // Another conversation's file and an upload not sent answer as an unknown link does.
    for (const id of [other.body.attachment!.id, unsent.body.attachment!.id, "not-an-id"]) expect((await file(id)).status).toBe(404);
    await ops.revokeShareLink(h.user, { conversationId: conversation.id, linkId: link.id });
    expect((await file(image.body.attachment!.id)).status).toBe(404);
    await h.db.rateBucket.deleteMany({ where: { key: { startsWith: "share-miss:" } } });
  });
});

describe("editing a message with files", () => {
  const userIndex = (request: RecordedRequest) => messagesOf(request).findLastIndex((message) => message.role === "user");
  const shownUser = (conversationId: string) => h.db.message.findFirstOrThrow({ where: { conversationId, role: "user", rewoundAt: null }, orderBy: { seq: "desc" } });
  const filesOn = (messageId: string) => h.db.attachment.findMany({ where: { messageId }, orderBy: { position: "asc" } });
  const edit = async (conversationId: string, editSeq: number, content: string) => collect(await ops.startTurn(h.user, { conversationId, editSeq, content }));

  it("an edit that keeps the image's line sends the image with the edited message and counts it; the original keeps its own", async () => {
    const conversation = await newConversation(VISION);
    const uploaded = await upload(conversation.id, "photo.png", tinyPng(800, 600));
    await sendWith(conversation.id, "What is in the picture?", [uploaded.body.attachment!.id]);
    const original = await shownUser(conversation.id);

    const edited = "What colour is the sky in it?\n\n[image: photo.png, 800×600]";
    const events = await edit(conversation.id, original.seq, edited);
    expect(events.find((event) => event.type === "error")).toBeUndefined();

    // The outside model read the image on the edited message, and priced it by its own rule.
    const request = chats().at(-1)!;
    expect(textOf(messagesOf(request)[userIndex(request)]!.content)).toBe(edited);
    expect(request.images).toEqual([expect.objectContaining({ message: userIndex(request), width: 800, height: 600, tokens: 765 })]);
    const version = await shownUser(conversation.id);
    expect(version.id).not.toBe(original.id);
    expect(version.tokenCount).toBeGreaterThan(765);
    expect(version.tokenCount).toBeLessThan(765 + 40);
    // The chip: a copy of the file on the new version, starting at its line.
    const copied = await filesOn(version.id);
    expect(copied.map((file) => [file.name, file.contentStart, Buffer.from(file.bytes).equals(Buffer.from(tinyPng(800, 600)))])).toEqual([
      ["photo.png", edited.indexOf("[image:"), true],
    ]);
    const listed = await ops.conversationAttachments(h.user, conversation.id);
    expect(listed.filter((file) => file.messageId === version.id)).toHaveLength(1);

    // The original version still has its image: shown again, it goes to the model again.
    expect((await filesOn(original.id)).map((file) => file.id)).toEqual([uploaded.body.attachment!.id]);
    await ops.switchVersion(h.user, { conversationId: conversation.id, messageId: original.id });
    await send(conversation.id, "And now?");
    const after = chats().at(-1)!;
    expect(after.images).toEqual([expect.objectContaining({ message: messagesOf(after).findIndex((message) => message.role === "user"), tokens: 765 })]);
  });

  it("an edit that deletes the image's line sends no image and counts the text alone; a file whose header stays keeps its chip", async () => {
    const conversation = await newConversation(VISION);
    const image = await upload(conversation.id, "photo.png", tinyPng(800, 600));
    const notes = await upload(conversation.id, "notes.md", "The ferry leaves at 9.\n");
    await sendWith(conversation.id, "Plan it", [image.body.attachment!.id, notes.body.attachment!.id]);
    const original = await shownUser(conversation.id);
    expect(original.content).toContain("[image: photo.png, 800×600]\n\nAttached file: notes.md");

    const edited = original.content.replace("[image: photo.png, 800×600]\n\n", "").replace("Plan it", "Plan it without the photo");
    await edit(conversation.id, original.seq, edited);
    const request = chats().at(-1)!;
    expect(request.images).toEqual([]);
    expect(textOf(messagesOf(request)[userIndex(request)]!.content)).toBe(edited);
    const version = await shownUser(conversation.id);
    expect(version.tokenCount).toBeLessThan(40);
    expect((await filesOn(version.id)).map((file) => [file.name, file.contentStart])).toEqual([["notes.md", edited.indexOf("Attached file: notes.md")]]);
    // The original keeps both.
    expect((await filesOn(original.id)).map((file) => file.name)).toEqual(["photo.png", "notes.md"]);
  });
});
