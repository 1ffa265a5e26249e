// Full-text search over the whole history (lib/db/search.ts), through the route handler
// with real requests. Runs on PostgreSQL and on embedded PGlite (npm run test:embedded).
import { beforeAll, describe, expect, it } from "vitest";
import * as searchRoute from "../../app/api/search/route";
import * as ops from "../../lib/chat/operations";
import type { SearchHit } from "../../lib/views";
import { newConversation, send, setupHarness, saveTestSettings } from "../support/harness";
import { bearer, signUp, uniqueEmail } from "../support/accounts";

const h = setupHarness({ resetEachTest: false });
const MODEL = "gpt-4o-mini";
let auth: { authorization: string };
let deepId: string;

function search(query: Record<string, string>, headers: Record<string, string> = auth) {
  const url = new URL("http://localhost/api/search");
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return searchRoute.GET(new Request(url, { headers }));
}

async function results(query: Record<string, string>, headers = auth): Promise<SearchHit[]> {
  const response = await search(query, headers);
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: SearchHit[] }).results;
}

const hitWords = (hit: SearchHit) => hit.snippet.filter((part) => part.hit).map((part) => part.text.toLowerCase());

beforeAll(async () => {
  auth = await bearer(h.user);
  // A small window: a dozen turns stack compactions up to level 2.
  await saveTestSettings(h.db, {
    contextWindowOverrides: { [MODEL]: 2000 },
    hardLimitReserve: 200,
    keepRecentCount: 4,
    threshold: 0.6,
    preemptiveThreshold: 0,
    maxSummaryTokensPerLevel: 150,
  });
  const deep = await newConversation(MODEL);
  deepId = deep.id;
  await send(deepId, "Turn 1: the quartermaster stored the zeppelinite crystals REPLY_WORDS=120");
  for (let turn = 2; turn <= 12; turn++) await send(deepId, `Turn ${turn}: FACT k${turn}=v${turn} REPLY_WORDS=120`);
}, 120_000);

describe("search over the whole history", () => {
  it("finds a word that only exists in the originals under a level-2 compaction", async () => {
    const level2 = await h.db.compaction.findFirst({ where: { conversationId: deepId, level: 2, undoneAt: null } });
    expect(level2).not.toBeNull();
    expect(level2!.fromSeq).toBe(1);
    const hits = await results({ q: "zeppelinite" });
    const hit = hits.find((candidate) => candidate.kind === "message" && candidate.conversationId === deepId);
    expect(hit).toMatchObject({ kind: "message", seq: 1, role: "user", compressed: true, anchor: "m-1" });
    expect(hitWords(hit!)).toEqual(["zeppelinite"]);
    expect(hit!.snippet.map((part) => part.text).join("")).toContain("quartermaster stored the");
  });

  it("searches summaries too, and stems words", async () => {
    const summary = await h.db.compaction.findFirst({ where: { conversationId: deepId, undoneAt: null }, orderBy: { level: "desc" } });
    const word = summary!.summary.match(/FACT (k\d+)=/)![1]!;
    const hits = await results({ q: word, conversationId: deepId });
    expect(hits.some((hit) => hit.kind === "summary" && hit.anchor === `s-${hit.fromSeq}-l${hit.level}`)).toBe(true);
    // "crystal" finds "crystals".
    expect((await results({ q: "crystal" })).some((hit) => hit.conversationId === deepId)).toBe(true);
  });

  it("ranks the denser match first and honours websearch syntax", async () => {
    const conversation = await newConversation(MODEL);
    await send(conversation.id, "obsidian obsidian obsidian ledger REPLY_WORDS=3");
    await send(conversation.id, "a note that mentions obsidian once among many other unrelated words here REPLY_WORDS=3");
    const hits = await results({ q: "obsidian", conversationId: conversation.id });
    const users = hits.filter((hit) => hit.kind === "message" && hit.role === "user");
    expect(users.map((hit) => (hit.kind === "message" ? hit.seq : 0))).toEqual([1, 3]);
    expect(users[0]!.rank).toBeGreaterThan(users[1]!.rank);
    const excluded = await results({ q: "obsidian -ledger", conversationId: conversation.id });
    expect(excluded.map((hit) => (hit.kind === "message" ? hit.seq : 0))).toEqual([3]);
    expect(await results({ q: '"obsidian ledger"', conversationId: conversation.id })).toHaveLength(1);
  });

  it("quotes stored markup as text, never as HTML", async () => {
    const conversation = await newConversation(MODEL);
    await send(conversation.id, 'the <img src=x onerror="alert(1)"> basilisk & <b>friends</b> REPLY_WORDS=3');
    const [hit] = await results({ q: "basilisk", conversationId: conversation.id });
    expect(hitWords(hit!)).toEqual(["basilisk"]);
    for (const part of hit!.snippet) expect(typeof part.text).toBe("string");
    expect(hit!.snippet.map((part) => part.text).join("")).not.toMatch(/[\u0001\u0002]/);
  });

  it("scopes to one conversation, and never shows another user's text", async () => {
    const other = await newConversation(MODEL);
    await send(other.id, "zeppelinite in a second conversation REPLY_WORDS=3");
    const everywhere = await results({ q: "zeppelinite" });
    expect(new Set(everywhere.map((hit) => hit.conversationId))).toEqual(new Set([deepId, other.id]));
    const scoped = await results({ q: "zeppelinite", conversationId: other.id });
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped.every((hit) => hit.conversationId === other.id)).toBe(true);

    const stranger = await signUp(uniqueEmail("stranger"));
    const theirs = await ops.createConversation(stranger, { title: "Theirs", model: MODEL });
    await h.db.message.create({ data: { conversationId: theirs.id, seq: 1, role: "user", content: "zeppelinite belongs to a stranger", tokenCount: 5 } });
    const strangerAuth = await bearer(stranger);
    expect((await results({ q: "zeppelinite" })).some((hit) => hit.conversationId === theirs.id)).toBe(false);
    expect((await results({ q: "zeppelinite" }, strangerAuth)).map((hit) => hit.conversationId)).toEqual([theirs.id]);
    // Another user's conversation id is "not found", like one that does not exist.
    expect((await search({ q: "zeppelinite", conversationId: deepId }, strangerAuth)).status).toBe(404);
    expect((await search({ q: "zeppelinite" }, {})).status).toBe(401);
  });

  it("answers empty, over-long and syntax-only queries with a clear 400, never a 500", async () => {
    for (const q of ["", "   ", "x".repeat(201), '"((( OR -', "the and of", "!!!"]) {
      const response = await search({ q });
      expect(response.status, q).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.message.length).toBeGreaterThan(10);
    }
    expect((await search({})).status).toBe(400);
    expect((await search({ q: "zeppelinite", conversationId: "not-an-id" })).status).toBe(400);
    // Unbalanced syntax around real words still searches.
    for (const q of ['zeppelinite" OR (((', "-(zeppelinite", "zeppelinite:*&|!<->"]) {
      expect((await search({ q })).status, q).toBe(200);
    }
  });
});
