// Settings in three layers through the operations: the admin's defaults, each user's
// own settings, a conversation's overrides. Every turn reads them afresh, so a change
// applies from the next turn; each user's settings are theirs alone.
import { describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { DEFAULT_SETTINGS } from "../../lib/compression/settings";
import { collect, rowCounts, setupHarness } from "../support/harness";
import { signUp } from "../support/accounts";
import type { TurnEvent } from "../../lib/chat/events";

const h = setupHarness();
const admin = () => ({ ...h.user, role: "admin" as const });

async function turnThreshold(user: { id: string; role: "admin" | "user" }, conversationId: string): Promise<number> {
  const events: TurnEvent[] = await collect(await ops.startTurn(user, { conversationId, content: "What applies now?" }));
  const done = events.find((event) => event.type === "done");
  if (!done || done.type !== "done") throw new Error("the turn did not finish");
  return done.context.threshold;
}

describe("three layers of settings", () => {
  it("a user's settings are their own; the admin's defaults reach only values a user has not set", async () => {
    const other = await signUp();
    await ops.saveSettings(h.user, { ...DEFAULT_SETTINGS, keepRecentCount: 6 });
    expect((await ops.getSettings(h.user)).keepRecentCount).toBe(6);
    expect(await ops.getSettings(other)).toEqual(DEFAULT_SETTINGS);

    await ops.saveDefaults(admin(), { ...DEFAULT_SETTINGS, keepRecentCount: 12, summaryMaxTokens: 700 });
    expect(await ops.getSettings(other)).toMatchObject({ keepRecentCount: 12, summaryMaxTokens: 700 });
    expect(await ops.getSettings(h.user)).toMatchObject({ keepRecentCount: 6, summaryMaxTokens: 700 });
    await expect(ops.saveDefaults(other, DEFAULT_SETTINGS)).rejects.toMatchObject({ code: "forbidden" });
  });

  it("a conversation's override wins for that conversation only, says where each value comes from, and applies from the next turn", async () => {
    await ops.saveSettings(h.user, { ...DEFAULT_SETTINGS, threshold: 0.85, keepRecentCount: 6 });
    const overridden = await ops.createConversation(h.user, { title: "overridden" });
    const plain = await ops.createConversation(h.user, { title: "plain" });
    expect(await turnThreshold(h.user, overridden.id)).toBe(0.85);

    const resolved = await ops.updateConversationSettings(h.user, { conversationId: overridden.id, threshold: 0.75, strategy: "structured" });
    expect(resolved.settings).toMatchObject({ threshold: 0.75, strategy: "structured", keepRecentCount: 6 });
    expect(resolved.sources).toMatchObject({ threshold: "conversation", strategy: "conversation", keepRecentCount: "user", summaryMaxTokens: "default" });
    expect(await turnThreshold(h.user, overridden.id)).toBe(0.75);
    expect(await turnThreshold(h.user, plain.id)).toBe(0.85);

    const cleared = await ops.updateConversationSettings(h.user, { conversationId: overridden.id, threshold: null });
    expect(cleared.sources.threshold).toBe("user");
    expect(cleared.settings.strategy).toBe("structured");
    expect(await turnThreshold(h.user, overridden.id)).toBe(0.85);
  });

  it("an override that breaks a rule with the user's settings is refused field by field, storing nothing", async () => {
    const conversation = await ops.createConversation(h.user, {});
    const before = await rowCounts(h.db);
    // The pre-emptive threshold (0.65 by default) must stay below the threshold.
    await expect(ops.updateConversationSettings(h.user, { conversationId: conversation.id, threshold: 0.5 })).rejects.toMatchObject({
      code: "invalid_input",
      details: { preemptiveThreshold: [expect.stringMatching(/below the auto threshold/)] },
    });
    await expect(ops.updateConversationSettings(h.user, { conversationId: conversation.id, enabled: false })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(ops.updateConversationSettings(h.user, { conversationId: conversation.id, keepRecentCount: -1 })).rejects.toMatchObject({
      code: "invalid_input",
    });
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("another user cannot read or change a conversation's settings (not found)", async () => {
    const other = await signUp();
    const conversation = await ops.createConversation(h.user, {});
    await expect(ops.conversationSettings(other, conversation.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(ops.updateConversationSettings(other, { conversationId: conversation.id, threshold: 0.7 })).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await ops.conversationSettings(h.user, conversation.id)).sources.threshold).not.toBe("conversation");
  });
});
