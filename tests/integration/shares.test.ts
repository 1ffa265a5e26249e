// Read-only share links: the owner creates, lists and revokes them; a live token opens
// one conversation and nothing else (not another conversation's compactions or messages,
// even by their ids); unknown, revoked and expired tokens answer alike.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as messagesRoute from "../../app/api/shared/[token]/messages/route";
import * as childrenRoute from "../../app/api/shared/[token]/compactions/[id]/children/route";
import * as pathRoute from "../../app/api/shared/[token]/path/route";
import * as pinnedRoute from "../../app/api/shared/[token]/pinned/route";
import * as ops from "../../lib/chat/operations";
import { MAX_SHARE_LINKS } from "../../lib/chat/share-ops";
import { signUp, type TestUser } from "../support/accounts";
import { newConversation, refusal, send, setupHarness } from "../support/harness";

const h = setupHarness();
const SUMMARY = "The user asked about the Lisbon tram and the budget.";
const UNKNOWN_TOKEN = "A".repeat(43);
const UNKNOWN_ID = "0190a000-0000-7000-8000-000000000000";

/** A conversation of the harness user with two exchanges, the first one summarized. */
async function summarized(title: string): Promise<{ conversationId: string; compactionId: string }> {
  const conversation = await newConversation();
  await ops.updateConversation(h.user, { conversationId: conversation.id, title });
  await send(conversation.id, `${title}: first question`);
  await send(conversation.id, `${title}: second question`);
  const applied = await ops.applyProposal(h.user, { conversationId: conversation.id, summary: `${SUMMARY} (${title})`, fromSeq: 1, toSeq: 2 });
  return { conversationId: conversation.id, compactionId: applied.compactions[0]!.id };
}

async function share(conversationId: string, expiresInDays: 1 | 7 | 30 | null = null) {
  return ops.createShareLink(h.user, { conversationId, expiresInDays });
}

type Read = { status: number; body: string };

type Params = { token: string; id: string };

async function read<P extends Partial<Params>>(url: string, handler: (request: Request, context: { params: Promise<P> }) => Promise<Response>, params: P): Promise<Read> {
  const response = await handler(new Request(`http://localhost${url}`), { params: Promise.resolve(params) });
  return { status: response.status, body: await response.text() };
}

const readTimeline = (token: string, query = "") => read(`/api/shared/${token}/messages${query}`, messagesRoute.GET, { token });
const readChildren = (token: string, id: string) => read(`/api/shared/${token}/compactions/${id}/children`, childrenRoute.GET, { token, id });
const readPath = (token: string, seq: number) => read(`/api/shared/${token}/path?seq=${seq}`, pathRoute.GET, { token });
const readPinned = (token: string) => read(`/api/shared/${token}/pinned`, pinnedRoute.GET, { token });

describe("share links", () => {
  let other: TestUser;
  let mine: { conversationId: string; compactionId: string };
  let elsewhere: { conversationId: string; compactionId: string };

  beforeAll(async () => {
    other = await signUp();
    mine = await summarized("Shared one");
    elsewhere = await summarized("Not shared");
  });

  afterAll(async () => {
    await h.db.rateBucket.deleteMany({ where: { key: { startsWith: "share-miss:" } } });
  });

  it("creates a link whose token is random and long, stores only its hash, and lists it", async () => {
    const { link, token } = await share(mine.conversationId, 7);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes
    const again = await share(mine.conversationId);
    expect(again.token).not.toBe(token);

    const row = await h.db.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    const everything = JSON.stringify(await h.db.$queryRaw`SELECT * FROM "ShareLink"`);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(again.token);

    const days = (Date.parse(link.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const listed = await ops.listShareLinks(h.user, mine.conversationId);
    expect(listed.map((l) => l.id)).toEqual(expect.arrayContaining([link.id, again.link.id]));
    expect(listed.find((l) => l.id === again.link.id)).toMatchObject({ expiresAt: null, lastOpenedAt: null, expired: false });
    // The list never carries a token or its hash.
    expect(JSON.stringify(listed)).not.toContain(row.tokenHash);
  });

  it("opens the conversation read-only and notes when the link was opened", async () => {
    const { link, token } = await share(mine.conversationId);
    const opened = await ops.openSharedConversation(token, null, 100);
    expect(opened.title).toBe("Shared one");
    const compaction = opened.items.find((item) => item.type === "compaction");
    expect(compaction?.type === "compaction" && compaction.compaction.summary).toContain(SUMMARY);
    const listed = await ops.listShareLinks(h.user, mine.conversationId);
    expect(listed.find((l) => l.id === link.id)?.lastOpenedAt).not.toBeNull();
    // Nothing of the owner's beyond the conversation: no user id, email or other conversation.
    const text = JSON.stringify(opened);
    expect(text).not.toContain(h.user.id);
    expect(text).not.toContain(h.user.email);
    expect(text).not.toContain(elsewhere.conversationId);
  });

  it("reads through the shared routes: the timeline, a summary's originals, the way to a message, the pinned strip", async () => {
    const { token } = await share(mine.conversationId);
    const timeline = await readTimeline(token, "?limit=10");
    expect(timeline.status, timeline.body).toBe(200);
    expect(timeline.body).toContain(SUMMARY);

    const children = await readChildren(token, mine.compactionId);
    expect(children.status, children.body).toBe(200);
    const items = (JSON.parse(children.body) as { items: { type: string; message?: { seq: number; content: string } }[] }).items;
    expect(items.map((item) => item.message?.seq)).toEqual([1, 2]);
    expect(items[0]!.message!.content).toBe("Shared one: first question");

    const path = await readPath(token, 1);
    expect(path.status, path.body).toBe(200);
    expect(JSON.parse(path.body)).toMatchObject({ seq: 1, path: [{ id: mine.compactionId }] });

    await ops.pinMessage(h.user, { conversationId: mine.conversationId, seq: 1, pinned: true });
    const pinned = await readPinned(token);
    expect(pinned.status, pinned.body).toBe(200);
    expect((JSON.parse(pinned.body) as { seq: number }[]).map((m) => m.seq)).toEqual([1]);
    await ops.pinMessage(h.user, { conversationId: mine.conversationId, seq: 1, pinned: false });

    const bad = await readTimeline(token, "?limit=many");
    expect(bad.status).toBe(400);
  });

  it("reaches no other conversation's compactions or messages, even by their ids", async () => {
    const { token } = await share(mine.conversationId);
    const unknown = await readChildren(token, UNKNOWN_ID);
    expect(unknown.status).toBe(404);
    // The owner's other conversation, and another user's: answered exactly like an unknown id.
    const theirs = await summarizedOf(other);
    for (const id of [elsewhere.compactionId, theirs.compactionId]) {
      const guessed = await readChildren(token, id);
      expect(guessed.status, guessed.body).toBe(404);
      expect(guessed.body).toBe(unknown.body);
      expect(guessed.body).not.toContain("Not shared");
    }
    // A message id in place of a compaction id opens nothing either.
    const message = await h.db.message.findFirstOrThrow({ where: { conversationId: elsewhere.conversationId } });
    const asCompaction = await readChildren(token, message.id);
    expect(asCompaction.body).toBe(unknown.body);
    // The timeline takes no conversation id: one in the query is not a way to another.
    const timeline = await readTimeline(token, `?conversationId=${elsewhere.conversationId}`);
    expect(timeline.body).not.toContain("Not shared");
    expect(timeline.body).toContain("Shared one");
  });

  it("unknown, revoked and expired tokens answer alike, on every shared route", async () => {
    const revoked = await share(mine.conversationId);
    await ops.revokeShareLink(h.user, { conversationId: mine.conversationId, linkId: revoked.link.id });
    const expired = await share(mine.conversationId, 1);
    await h.db.shareLink.update({ where: { id: expired.link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const answers = await Promise.all(
      [UNKNOWN_TOKEN, revoked.token, expired.token, "short"].map(async (token) => [
        await readTimeline(token),
        await readChildren(token, mine.compactionId),
        await readPath(token, 1),
        await readPinned(token),
      ]),
    );
    for (const routes of answers) {
      for (const [index, answer] of routes.entries()) {
        expect(answer.status, answer.body).toBe(404);
        expect(answer.body).toBe(answers[0]![index]!.body);
      }
    }
    for (const token of [revoked.token, expired.token]) {
      expect((await refusal(ops.openSharedConversation(token, null, 10))).message).toBe((await refusal(ops.openSharedConversation(UNKNOWN_TOKEN, null, 10))).message);
    }
    const listed = await ops.listShareLinks(h.user, mine.conversationId);
    expect(listed.find((l) => l.id === revoked.link.id)).toBeUndefined();
    expect(listed.find((l) => l.id === expired.link.id)?.expired).toBe(true);
  });

  it("another user can neither create, list nor revoke links on my conversation: not found, like an unknown id", async () => {
    const { link } = await share(mine.conversationId);
    for (const attempt of [
      () => ops.createShareLink(other, { conversationId: mine.conversationId, expiresInDays: null }),
      () => ops.listShareLinks(other, mine.conversationId),
      () => ops.revokeShareLink(other, { conversationId: mine.conversationId, linkId: link.id }),
    ]) {
      expect((await refusal(attempt())).code).toBe("not_found");
    }
    const unknownMessage = (await refusal(ops.createShareLink(other, { conversationId: UNKNOWN_ID, expiresInDays: null }))).message;
    const theirsMessage = (await refusal(ops.createShareLink(other, { conversationId: mine.conversationId, expiresInDays: null }))).message;
    expect(theirsMessage.replace(mine.conversationId, "ID")).toBe(unknownMessage.replace(UNKNOWN_ID, "ID"));
    // My link on my conversation, revoked with another conversation of mine named: not found either.
    expect((await refusal(ops.revokeShareLink(h.user, { conversationId: elsewhere.conversationId, linkId: link.id }))).code).toBe("not_found");
    expect(await h.db.shareLink.count({ where: { id: link.id } })).toBe(1);
  });

  it("refuses bad input with a clear error", async () => {
    const bad = await refusal(ops.createShareLink(h.user, { conversationId: mine.conversationId, expiresInDays: 3 }));
    expect(bad.code).toBe("invalid_input");
    expect(JSON.stringify(bad.details)).toContain("Choose never, 1, 7 or 30 days.");
    expect((await refusal(ops.createShareLink(h.user, { conversationId: "nope", expiresInDays: null }))).code).toBe("invalid_input");
  });

  it(`keeps at most ${MAX_SHARE_LINKS} live links per conversation; expired ones make room`, async () => {
    const { id: conversationId } = await newConversation();
    for (let index = 0; index < MAX_SHARE_LINKS; index++) await share(conversationId);
    const over = await refusal(share(conversationId));
    expect(over.code).toBe("conflict");
    expect(over.message).toContain(`${MAX_SHARE_LINKS} share links`);
    const oldest = await h.db.shareLink.findFirstOrThrow({ where: { conversationId }, orderBy: { createdAt: "asc" } });
    await h.db.shareLink.update({ where: { id: oldest.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await share(conversationId);
    expect(await h.db.shareLink.count({ where: { conversationId } })).toBe(MAX_SHARE_LINKS);
    await ops.deleteConversation(h.user, conversationId);
  });

  it("deleting the conversation kills its links", async () => {
    const { conversationId } = await summarized("Doomed");
    const { token } = await share(conversationId);
    expect((await readTimeline(token)).status).toBe(200);
    await ops.deleteConversation(h.user, conversationId);
    expect(await h.db.shareLink.count({ where: { conversationId } })).toBe(0);
    const gone = await readTimeline(token);
    expect(gone.status).toBe(404);
    expect(gone.body).toBe((await readTimeline(UNKNOWN_TOKEN)).body);
  });

  it("an export carries no share link", async () => {
    const { link } = await share(mine.conversationId);
    const row = await h.db.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    const exported = await ops.exportConversation(h.user, { conversationId: mine.conversationId });
    const body = exported.body;
    expect(body).not.toContain(link.id);
    expect(body).not.toContain(row.tokenHash);
  });

  it("a client asking for links that do not exist is stopped, whatever it asks next", async () => {
    const { token } = await share(mine.conversationId);
    const client = `203.0.113.${Math.floor(Math.random() * 200)}`;
    for (let index = 0; index < 60; index++) expect((await refusal(ops.openSharedConversation(UNKNOWN_TOKEN, client, 10))).code).toBe("not_found");
    expect((await refusal(ops.openSharedConversation(UNKNOWN_TOKEN, client, 10))).code).toBe("rate_limited");
    expect((await refusal(ops.openSharedConversation(token, client, 10))).code).toBe("rate_limited");
    // Another address is not affected, and live tokens are never counted.
    expect((await ops.openSharedConversation(token, "203.0.113.250", 10)).title).toBe("Shared one");
  });
});

/** A summarized conversation of another user. */
async function summarizedOf(user: TestUser): Promise<{ conversationId: string; compactionId: string }> {
  const conversation = await ops.createConversation(user, { title: "Not shared either", model: "gpt-4o-mini" });
  const applied = await h.db.compaction.create({
    data: {
      conversationId: conversation.id, level: 1, kind: "summary", trigger: "manual", strategy: "ai_summary", fromSeq: 1, toSeq: 2,
      summary: "Not shared: theirs.", summaryTokens: 4, coveredMessageCount: 2, coveredTokens: 10,
      messagesBefore: 4, messagesAfter: 3, tokensBefore: 20, tokensAfter: 14, durationMs: 1,
    },
  });
  return { conversationId: conversation.id, compactionId: applied.id };
}
