// Export (JSON and Markdown) and import, through the route handlers: a round trip
// through a 2-level compaction tree, and refused files that leave nothing behind.
import { beforeAll, describe, expect, it } from "vitest";
import * as exportRoute from "../../app/api/conversations/[id]/export/route";
import * as importRoute from "../../app/api/conversations/import/route";
import * as ops from "../../lib/chat/operations";
import type { ConversationExport } from "../../lib/db/export-format";
import { newConversation, rowCounts, send, setupHarness, saveTestSettings } from "../support/harness";
import { bearer } from "../support/accounts";
import { rawHtml, shownText } from "../support/markdown";
import { importMarkdownTranscript } from "../../lib/chat/markdown-import";
import * as attachmentRoute from "../../app/api/attachments/[id]/route";
import { pngHeader, tinyPng } from "../support/tiny-image";

const h = setupHarness({ resetEachTest: false });
const MODEL = "gpt-4o-mini";
let auth: { authorization: string };
let sourceId: string;

const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function exported(id: string, format = "json"): Promise<Response> {
  return exportRoute.GET(new Request(`http://localhost/api/conversations/${id}/export?format=${format}`, { headers: auth }), params(id));
}

async function exportJson(id: string): Promise<ConversationExport> {
  const response = await exported(id);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-disposition")).toMatch(/attachment; filename=".+\.strata\.json"/);
  return (await response.json()) as ConversationExport;
}

function importRequest(body: unknown): Promise<Response> {
  return importRoute.POST(
    new Request("http://localhost/api/conversations/import", {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

const withoutExportTime = ({ exportedAt: _ignored, ...rest }: ConversationExport) => rest;

/** What a copy's export should be: the source's, its title marked as imported. */
const asImported = (doc: ConversationExport) => ({ ...doc, conversation: { ...doc.conversation, title: `${doc.conversation.title} (imported)` } });

beforeAll(async () => {
  auth = await bearer(h.user);
  await saveTestSettings(h.db, {
    contextWindowOverrides: { [MODEL]: 2000 },
    hardLimitReserve: 200,
    keepRecentCount: 4,
    threshold: 0.6,
    preemptiveThreshold: 0,
    maxSummaryTokensPerLevel: 150,
  });
  const conversation = await newConversation(MODEL);
  sourceId = conversation.id;
  for (let turn = 1; turn <= 12; turn++) await send(sourceId, `Turn ${turn}: FACT k${turn}=v${turn} REPLY_WORDS=120`);
  await ops.pinMessage(h.user, { conversationId: sourceId, seq: (await h.db.conversation.findUniqueOrThrow({ where: { id: sourceId } })).lastSeq - 1, pinned: true });
  await ops.updateConversationSettings(h.user, { conversationId: sourceId, keepRecentCount: 5 });
}, 120_000);

describe("export and import", () => {
  it("export → import → export gives the same file, 2-level tree, attempts and settings included", async () => {
    const first = await exportJson(sourceId);
    expect(first.compactions.some((c) => c.level === 2)).toBe(true);
    expect(first.compactions.some((c) => c.supersededBy != null)).toBe(true);
    expect(first.attempts.length).toBeGreaterThan(0);
    expect(first.settings.overrides).toEqual({ keepRecentCount: 5 });
    expect(first.settings.effective).toMatchObject({ keepRecentCount: 5, threshold: 0.6 });

    const response = await importRequest(first);
    expect(response.status).toBe(201);
    const { conversation } = (await response.json()) as { conversation: { id: string; title: string } };
    expect(conversation.id).not.toBe(sourceId);
    expect(conversation.title).toBe(`${first.conversation.title} (imported)`);
    const second = await exportJson(conversation.id);
    expect(withoutExportTime(second)).toEqual(withoutExportTime(asImported(first)));

    // The copy is a working conversation: its tree opens, search finds its originals.
    const timeline = await ops.timeline(h.user, { conversationId: conversation.id, limit: 50 });
    const top = timeline.items.find((item) => item.type === "compaction" && item.compaction.level === 2);
    expect(top).toBeDefined();
    const children = await ops.compactionChildren(h.user, { compactionId: top!.type === "compaction" ? top!.compaction.id : "", limit: 50 });
    expect(children.items.some((item) => item.type === "compaction" && item.compaction.level === 1)).toBe(true);
    const hits = await ops.search(h.user, { q: "k1", conversationId: conversation.id });
    expect(hits.length).toBeGreaterThan(0);
  });

  it("exports Markdown with each summary as a <details> block holding its originals", async () => {
    const response = await exported(sourceId, "markdown");
    expect(response.headers.get("content-type")).toMatch(/text\/markdown/);
    const markdown = await response.text();
    expect(markdown).toMatch(/^# Test\n/);
    expect(markdown).toMatch(/<details>\n<summary>L2 summary of messages 1–\d+/);
    expect(markdown).toMatch(/<details>\n<summary>L1 summary of messages 1–\d+/);
    expect(markdown.indexOf("<summary>L2")).toBeLessThan(markdown.indexOf("<summary>L1"));
    expect(markdown).toContain("#### You · #1\n\nTurn 1: FACT k1=v1");
    expect(markdown.split("<details>").length).toBe(markdown.split("</details>").length);
    expect((await exported(sourceId, "pdf")).status).toBe(400);
  });

  it("marks an imported copy's title, a 200-character one cut so that the mark fits", async () => {
    const long = `${"Long title ".repeat(19)}end of it`;
    expect(long.length).toBeGreaterThan(200 - " (imported)".length);
    const conversation = await ops.createConversation(h.user, { title: long.slice(0, 200), model: MODEL });
    const doc = await exportJson(conversation.id);
    const response = await importRequest(doc);
    expect(response.status).toBe(201);
    const { conversation: copy } = (await response.json()) as { conversation: { title: string } };
    expect(copy.title.length).toBeLessThanOrEqual(200);
    expect(copy.title).toMatch(/^Long title Long title .* \(imported\)$/);
    expect(copy.title).not.toMatch(/\s \(imported\)$/);
  });

  it("exports HTML in titles and messages as text in Markdown, and keeps it verbatim through JSON", async () => {
    const title = "<img src=x onerror=alert(1)>";
    const message = "<script>alert(1)</script> and `<b>` in code\n\n```html\n<div onclick=\"x\">kept</div>\n```";
    const conversation = await ops.createConversation(h.user, { title, model: "gpt-4o", systemPrompt: '<iframe src="https://example.com"></iframe>' });
    await send(conversation.id, message);
    const markdown = await (await exported(conversation.id, "markdown")).text();
    expect(markdown).toContain("# &lt;img src=x onerror=alert(1)>\n");
    expect(markdown).toContain("&lt;script>alert(1)&lt;/script> and `<b>` in code");
    expect(markdown).toContain('```html\n<div onclick="x">kept</div>\n```');
    expect(markdown).toContain('&lt;iframe src="https://example.com">&lt;/iframe>');
    // No raw HTML is left for another program to render; a reader sees the text as written.
    expect(rawHtml(markdown)).toEqual([]);
    const shown = shownText(markdown);
    expect(shown).toContain("<img src=x onerror=alert(1)>");
    expect(shown).toContain("<script>alert(1)</script> and <b> in code");
    // The JSON export is the one that imports: the text comes back unchanged.
    const doc = await exportJson(conversation.id);
    const imported = (await (await importRequest(doc)).json()) as { conversation: { id: string; title: string } };
    expect(imported.conversation.title).toBe(`${title} (imported)`);
    const again = await exportJson(imported.conversation.id);
    expect(again.conversation.systemPrompt).toBe('<iframe src="https://example.com"></iframe>');
    expect(again.messages.find((m) => m.role === "user")?.content).toBe(message);
  });

  it("refuses malformed files, broken ranges and oversized bodies with a clear error, writing nothing", async () => {
    const good = await exportJson(sourceId);
    const before = await rowCounts(h.db);
    const level1 = good.compactions.findIndex((c) => c.level === 1 && c.supersededBy != null);
    const broken: [string, unknown, RegExp][] = [
      ["not JSON", "{ nope", /not valid JSON/],
      ["another format", { ...good, format: "chatgpt" }, /Not a Strata conversation export/],
      ["missing messages", { ...good, messages: undefined }, /messages/],
      ["reversed range", { ...good, compactions: good.compactions.map((c, i) => (i === 0 ? { ...c, fromSeq: c.toSeq + 1 } : c)) }, /reversed range|no message has seq/],
      ["range past the messages", { ...good, compactions: good.compactions.map((c, i) => (i === 0 ? { ...c, toSeq: 10_000 } : c)) }, /no message has seq 10000/],
      ["merged into nothing", { ...good, compactions: good.compactions.map((c, i) => (i === level1 ? { ...c, supersededBy: 999 } : c)) }, /not in the file/],
      ["child outside its parent", { ...good, compactions: good.compactions.map((c, i) => (i === level1 ? { ...c, supersededBy: null } : c)) }, /overlap/],
      ["duplicate seq", { ...good, messages: [...good.messages, good.messages[0]] }, /not above the previous/],
      ["NUL in text", { ...good, messages: good.messages.map((m, i) => (i === 0 ? { ...m, content: "a\u0000b" } : m)) }, /NUL/],
      // Valid JSON numbers the database's 32-bit columns cannot hold: refused up front, not a 500 half-way through.
      ["a count past 32 bits", { ...good, messages: good.messages.map((m, i, all) => (i === all.length - 1 ? { ...m, tokenCount: 3_000_000_000 } : m)) }, /tokenCount/],
      ["a seq past 32 bits", { ...good, messages: [...good.messages, { ...good.messages.at(-1)!, seq: 2 ** 31 }] }, /seq/],
      ["a duration past 32 bits", { ...good, attempts: good.attempts.map((a, i, all) => (i === all.length - 1 ? { ...a, durationMs: 2 ** 40 } : a)) }, /durationMs/],
      ["NUL inside a summary's sections", { ...good, compactions: good.compactions.map((c, i, all) => (i === all.length - 1 ? { ...c, sections: { goal: "a\u0000b" } } : c)) }, /NUL/],
    ];
    for (const [label, body, message] of broken) {
      const response = await importRequest(body);
      expect(response.status, label).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message, label).toMatch(message);
    }
    process.env.STRATA_MAX_IMPORT_BYTES = "10000";
    try {
      const response = await importRequest(good);
      expect(response.status).toBe(413);
    } finally {
      delete process.env.STRATA_MAX_IMPORT_BYTES;
    }
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("holds an imported file to what an upload is: its type sniffed from its bytes, an image within the pixel bounds, no binary", async () => {
    const good = await exportJson(sourceId);
    const file = (name: string, mediaType: string, bytes: Uint8Array) => ({ name, mediaType, data: Buffer.from(bytes).toString("base64"), text: null, tokenCount: 1, contentStart: null });
    const withFiles = (files: ReturnType<typeof file>[]) => ({ ...good, messages: good.messages.map((m, i) => (i === 0 ? { ...m, attachments: files } : m)) });

    // A type a header cannot hold, and one the app never serves (SVG): stored as what the bytes are.
    const page = new TextEncoder().encode("<html><script>alert(1)</script></html>");
    const response = await importRequest(withFiles([file("a.png", "image/png\nX-Injected: 1", page), file("b.svg", "image/svg+xml", page), file("c.png", "text/plain", tinyPng(4, 3))]));
    expect(response.status).toBe(201);
    const { conversation } = (await response.json()) as { conversation: { id: string } };
    const stored = await ops.conversationAttachments(h.user, conversation.id);
    expect(stored.map((a) => [a.name, a.mediaType])).toEqual([["a.png", "text/plain"], ["b.svg", "text/plain"], ["c.png", "image/png"]]);
    for (const attachment of stored) {
      const download = await attachmentRoute.GET(new Request(`http://localhost/api/attachments/${attachment.id}`, { headers: auth }), params(attachment.id));
      expect(download.status, attachment.name).toBe(200);
      // Text goes out as a download; an image as what it was sniffed to be.
      expect(download.headers.get("content-type"), attachment.name).toBe(attachment.mediaType === "image/png" ? "image/png" : "application/octet-stream");
    }

    const before = await rowCounts(h.db);
    const refusedFiles: [string, ReturnType<typeof file>, RegExp][] = [
      ["an image past the pixel bounds", file("huge.png", "image/png", pngHeader(100_000, 100_000)), /messages\[0\]\.attachments\[0\]: “huge\.png” is 100000×100000 pixels/],
      ["a binary file", file("blob.bin", "application/octet-stream", new Uint8Array([0, 1, 2, 3, 0, 255])), /messages\[0\]\.attachments\[0\]: “blob\.bin” is not a file Strata can read/],
    ];
    for (const [label, refusedFile, message] of refusedFiles) {
      const refusal = await importRequest(withFiles([refusedFile]));
      expect(refusal.status, label).toBe(400);
      expect(((await refusal.json()) as { error: { message: string } }).error.message, label).toMatch(message);
    }
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("carries the temperature and the instructions through JSON and Markdown; a file from before the temperature still imports", async () => {
    const source = await newConversation(MODEL);
    await send(source.id, "Hello there");
    await ops.updateModelSettings(h.user, { conversationId: source.id, temperature: 0.35, instructions: "Answer in French." });
    const doc = await exportJson(source.id);
    expect(doc.conversation).toMatchObject({ temperature: 0.35, systemPrompt: "Answer in French." });

    const settingsOf = async (response: Response) => {
      expect(response.status).toBe(201);
      const { conversation } = (await response.json()) as { conversation: { id: string } };
      return ops.modelSettings(h.user, conversation.id).then((found) => found.settings);
    };
    expect(await settingsOf(await importRequest(doc))).toMatchObject({ temperature: 0.35, instructions: "Answer in French." });
    // An export made before files carried a temperature: imported with none (the server's default).
    const { temperature: _dropped, ...older } = doc.conversation;
    expect(await settingsOf(await importRequest({ ...doc, conversation: older }))).toMatchObject({ temperature: null, instructions: "Answer in French." });
    expect((await importRequest({ ...doc, conversation: { ...doc.conversation, temperature: 3 } })).status).toBe(400);

    const markdown = await (await exported(source.id, "markdown")).text();
    expect(markdown).toMatch(/^Model `gpt-4o-mini` · started .* from Strata · temperature 0\.35$/m);
    const copy = await importMarkdownTranscript(h.db, h.user.id, markdown);
    expect((await ops.modelSettings(h.user, copy.id)).settings).toMatchObject({ model: MODEL, temperature: 0.35, instructions: "Answer in French." });
  });
});
