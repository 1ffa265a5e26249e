// The JSON API, through the route handlers themselves with real Request objects.
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as conversationsRoute from "../../app/api/conversations/route";
import * as conversationRoute from "../../app/api/conversations/[id]/route";
import * as messagesRoute from "../../app/api/conversations/[id]/messages/route";
import * as contextRoute from "../../app/api/conversations/[id]/context/route";
import * as compactRoute from "../../app/api/conversations/[id]/compact/route";
import * as childrenRoute from "../../app/api/compactions/[id]/children/route";
import * as changesRoute from "../../app/api/conversations/[id]/changes/route";
import * as pathRoute from "../../app/api/conversations/[id]/path/route";
import * as pageRoute from "../../app/api/conversations/pages/route";
import * as settingsRoute from "../../app/api/settings/route";
import type { TurnEvent } from "../../lib/chat/events";
import { DEFAULT_SETTINGS } from "../../lib/compression/settings";
import { setupHarness } from "../support/harness";
import { bearer } from "../support/accounts";

const h = setupHarness();
const BASE = "http://localhost/api";
let auth: { authorization: string };
beforeAll(async () => {
  auth = await bearer(h.user);
});

function json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Request(`${BASE}${path}`, {
    method,
    headers: { "content-type": "application/json", ...auth, ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}
const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function createConversation(): Promise<string> {
  const response = await conversationsRoute.POST(json("POST", "/conversations", { title: "API", model: "gpt-4o-mini" }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { conversation: { id: string } }).conversation.id;
}

describe("JSON API", () => {
  it("creates, lists, renames and deletes conversations", async () => {
    const id = await createConversation();
    const list = (await (await conversationsRoute.GET(json("GET", "/conversations"))).json()) as { conversations: { id: string }[] };
    expect(list.conversations.some((c) => c.id === id)).toBe(true);
    const renamed = await conversationRoute.PATCH(json("PATCH", `/conversations/${id}`, { title: "Renamed" }), params(id));
    expect(((await renamed.json()) as { conversation: { title: string } }).conversation.title).toBe("Renamed");
    expect((await conversationRoute.DELETE(json("DELETE", `/conversations/${id}`), params(id))).status).toBe(204);
    expect((await conversationRoute.GET(json("GET", `/conversations/${id}`), params(id))).status).toBe(404);
  });

  it("streams a turn as NDJSON and serves the history afterwards", async () => {
    const id = await createConversation();
    const response = await messagesRoute.POST(json("POST", `/conversations/${id}/messages`, { content: "Hi REPLY_WORDS=12", stream: true }), params(id));
    expect(response.headers.get("content-type")).toMatch(/ndjson/);
    const events = (await response.text()).trim().split("\n").map((line) => JSON.parse(line) as TurnEvent);
    expect(events[0]).toMatchObject({ type: "message", message: { role: "user", seq: 1 } });
    expect(events.filter((e) => e.type === "delta").length).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({ type: "done" });
    const history = (await (await messagesRoute.GET(json("GET", `/conversations/${id}/messages`), params(id))).json()) as {
      items: { type: string; message: { role: string; content: string } }[];
    };
    expect(history.items.map((i) => i.message.role)).toEqual(["user", "assistant"]);
    expect(history.items[1]!.message.content.split(" ")).toHaveLength(12);
    const meter = (await (await contextRoute.GET(json("GET", "/x"), params(id))).json()) as { context: { totalTokens: number; ratio: number } };
    expect(meter.context.totalTokens).toBeGreaterThan(0);
  });

  it("the done event carries the change state the turn left, so its own tab does not reload it as another's", async () => {
    const id = await createConversation();
    const before = ((await (await changesRoute.GET(json("GET", "/x"), params(id))).json()) as { version: string }).version;
    const response = await messagesRoute.POST(json("POST", "/x", { content: "Hi REPLY_WORDS=5", stream: true }), params(id));
    const done = (await response.text()).trim().split("\n").map((line) => JSON.parse(line) as TurnEvent).at(-1);
    const after = ((await (await changesRoute.GET(json("GET", "/x"), params(id))).json()) as { version: string }).version;
    expect(done).toMatchObject({ type: "done", version: after });
    expect(after).not.toBe(before);
  });

  it("the GET reads refuse a malformed query with the field named, and page the sidebar", async () => {
    const id = await createConversation();
    await createConversation();
    const bad = await pathRoute.GET(json("GET", `/conversations/${id}/path?seq=first`), params(id));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "invalid_input", fields: { seq: [expect.any(String)] } } });
    const badPage = await pageRoute.GET(json("GET", "/conversations/pages?archived=maybe"), { params: Promise.resolve({}) });
    expect(badPage.status).toBe(400);
    // As Next calls a route without an [id] segment: no params.
    const page = (await (await pageRoute.GET(json("GET", "/conversations/pages?limit=1"), { params: undefined as never })).json()) as {
      items: unknown[];
      next: string | null;
    };
    expect(page.items).toHaveLength(1);
    expect(page.next).not.toBeNull();
  });

  it("a reader that goes away mid-stream does not lose the reply", async () => {
    const id = await createConversation();
    h.server.setLatency({ chatLatencyMs: 5 });
    const response = await messagesRoute.POST(json("POST", "/x", { content: "REPLY_WORDS=150", stream: true }), params(id));
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    await vi.waitFor(
      async () => expect(await h.db.message.count({ where: { conversationId: id, role: "assistant" } })).toBe(1),
      { timeout: 15_000, interval: 100 },
    );
    const reply = await h.db.message.findFirst({ where: { conversationId: id, role: "assistant" } });
    expect(reply!.status).toBe("complete");
    expect(reply!.content.split(" ")).toHaveLength(150);
  });

  it("answers a non-streamed turn with one JSON document and a model failure with 502", async () => {
    const id = await createConversation();
    const ok = await messagesRoute.POST(json("POST", `/conversations/${id}/messages`, { content: "Hello" }), params(id));
    expect(ok.status).toBe(200);
    h.server.injectFault({ type: "http_500", target: "chat" });
    const failed = await messagesRoute.POST(json("POST", `/conversations/${id}/messages`, { content: "Again" }), params(id));
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { error: string }).error).toMatch(/500/);
  });

  it("compacts on request and pages what a compaction replaced", async () => {
    const id = await createConversation();
    for (let turn = 1; turn <= 12; turn++) {
      await messagesRoute.POST(json("POST", `/conversations/${id}/messages`, { content: `Turn ${turn} REPLY_WORDS=30` }), params(id));
    }
    const compacted = (await (await compactRoute.POST(json("POST", "/x", { instructions: "Be brief." }), params(id))).json()) as {
      compactions: { id: string; coveredMessageCount: number }[];
    };
    expect(compacted.compactions).toHaveLength(1);
    const { id: compactionId, coveredMessageCount } = compacted.compactions[0]!;
    const page1 = (await (await childrenRoute.GET(json("GET", `/compactions/${compactionId}/children?limit=5`), params(compactionId))).json()) as {
      items: { message: { seq: number } }[];
      nextAfterSeq: number | null;
    };
    expect(page1.items.map((i) => i.message.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(page1.nextAfterSeq).toBe(5);
    const rest = (await (
      await childrenRoute.GET(json("GET", `/compactions/${compactionId}/children?afterSeq=5&limit=100`), params(compactionId))
    ).json()) as { items: unknown[]; nextAfterSeq: number | null };
    expect(rest.items.length + 5).toBe(coveredMessageCount);
    expect(rest.nextAfterSeq).toBeNull();
  });

  it("validates settings as a whole and stores nothing invalid", async () => {
    const bad = await settingsRoute.PUT(json("PUT", "/settings", { ...DEFAULT_SETTINGS, threshold: 1.5, keepRecentCount: -1 }));
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { fields: Record<string, string[]> } };
    expect(Object.keys(body.error.fields).sort()).toEqual(["keepRecentCount", "threshold"]);
    const crossField = await settingsRoute.PUT(json("PUT", "/settings", { ...DEFAULT_SETTINGS, threshold: 0.5, preemptiveThreshold: 0.7 }));
    expect(crossField.status).toBe(400);
    const unknownModel = await settingsRoute.PUT(json("PUT", "/settings", { ...DEFAULT_SETTINGS, summaryModel: "no-such-model" }));
    expect(unknownModel.status).toBe(400);
    const stored = (await (await settingsRoute.GET(json("GET", "/settings"))).json()) as { settings: typeof DEFAULT_SETTINGS };
    expect(stored.settings).toEqual(DEFAULT_SETTINGS);
    const good = await settingsRoute.PUT(json("PUT", "/settings", { ...DEFAULT_SETTINGS, threshold: 0.7, summaryModel: "gpt-4o-mini" }));
    expect(good.status).toBe(200);
    expect(((await (await settingsRoute.GET(json("GET", "/settings"))).json()) as { settings: { threshold: number } }).settings.threshold).toBe(0.7);
  });

  it("refuses wrong content types, bad JSON and oversized bodies before doing anything", async () => {
    const id = await createConversation();
    const wrongType = await messagesRoute.POST(
      new Request(`${BASE}/conversations/${id}/messages`, { method: "POST", headers: { "content-type": "text/plain", ...auth }, body: "hi" }),
      params(id),
    );
    expect(wrongType.status).toBe(415);
    expect((await messagesRoute.POST(json("POST", "/x", "{not json"), params(id))).status).toBe(400);
    const huge = await messagesRoute.POST(json("POST", "/x", { content: "x".repeat(2_000_000) }), params(id));
    expect(huge.status).toBe(413);
    expect(await h.db.message.count({ where: { conversationId: id } })).toBe(0);
  });
});
