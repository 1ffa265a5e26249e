// Another view of a conversation (a second tab, another device) watches a turn it did
// not start: it gets what the turn has done so far, then every event until the end.
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import type { TurnEvent } from "../../lib/chat/events";
import { signUp, uniqueEmail } from "../support/accounts";
import { collect, newConversation, refusal, setupHarness } from "../support/harness";

const h = setupHarness();

const replyText = (events: TurnEvent[]) => events.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join("");

describe("watching a running turn", () => {
  it("a watcher that joins mid-reply sees the stored user message, the reply so far, then the rest: the same text the sender got", async () => {
    const conversation = await newConversation();
    h.server.setLatency({ chatLatencyMs: 20, tokensPerChunk: 1 });
    const sender = await ops.startTurn(h.user, { kind: "send", conversationId: conversation.id, content: "Tell me a long story REPLY_WORDS=60" });
    const sent: TurnEvent[] = [];
    // The sender reads until a few words have streamed (a turn advances only as its stream is read); then a second view joins.
    while (replyText(sent).split(" ").length <= 10) {
      const next = await sender.next();
      if (next.done) break;
      sent.push(next.value);
    }
    const watcher = collect(await ops.watchRunningTurn(h.user, conversation.id));
    sent.push(...(await collect(sender)));
    const watched = await watcher;
    expect(sent.at(-1)?.type).toBe("done");
    // Joined late: its first events are the replay, one delta holding everything streamed before it joined.
    expect(watched[0]).toMatchObject({ type: "message", message: { role: "user", content: "Tell me a long story REPLY_WORDS=60" } });
    expect(watched.map((event) => event.type)).toContain("assistant_start");
    expect(watched.at(-1)?.type).toBe("done");
    const stored = await h.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, role: "assistant" } });
    expect(replyText(watched)).toBe(stored.content);
    expect(watched.filter((event) => event.type === "message" && event.message.role === "assistant")).toHaveLength(1);
    h.server.setLatency({ chatLatencyMs: 0, tokensPerChunk: 3 });
  });

  it("without a running turn the watch ends at once, and nobody else may watch", async () => {
    const conversation = await newConversation();
    expect(await collect(await ops.watchRunningTurn(h.user, conversation.id))).toEqual([]);
    const stranger = await signUp(uniqueEmail("stranger"));
    expect((await refusal(ops.watchRunningTurn(stranger, conversation.id))).code).toBe("not_found");
    expect((await refusal(ops.watchRunningTurn(h.user, "not-an-id"))).status).toBeGreaterThanOrEqual(400);
  });
});
