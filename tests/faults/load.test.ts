// A small load run through the real route handlers, in process (the full one against
// `next start` is bench/load.ts): 10 conversations × 5 turns at once, then integrity.
import { describe, expect, it } from "vitest";
import * as conversationsRoute from "../../app/api/conversations/route";
import * as messagesRoute from "../../app/api/conversations/[id]/messages/route";
import { backgroundSettled } from "../../lib/chat/compressor";
import { allViolations } from "./support/invariants";
import { setupHarness, applySettings } from "./support/harness";
import { bearer } from "../support/accounts";

const h = setupHarness({ chatLatencyMs: 5, summaryLatencyMs: 50, tokensPerChunk: 10 });
const USERS = 10;
const TURNS = 5;

describe("load through the route handlers", () => {
  it(`${USERS} conversations × ${TURNS} turns at once: no errors, nothing lost`, async () => {
    await applySettings(h.db, { contextWindowOverrides: { "gpt-4o-mini": 2500 }, hardLimitReserve: 300, keepRecentCount: 4, summaryMaxTokens: 200 });
    const auth = await bearer(h.user);
    const errors: string[] = [];
    const latencies: number[] = [];
    const ids = await Promise.all(
      Array.from({ length: USERS }, async (_, user) => {
        const created = await conversationsRoute.POST(
          new Request("http://127.0.0.1/api/conversations", { method: "POST", headers: { "content-type": "application/json", ...auth }, body: JSON.stringify({ title: `load ${user}`, model: "gpt-4o-mini" }) }),
        );
        expect(created.status).toBe(201);
        const { conversation } = (await created.json()) as { conversation: { id: string } };
        for (let turn = 1; turn <= TURNS; turn++) {
          const started = performance.now();
          const response = await messagesRoute.POST(
            new Request(`http://127.0.0.1/api/conversations/${conversation.id}/messages`, {
              method: "POST",
              headers: { "content-type": "application/json", ...auth },
              body: JSON.stringify({ content: `User ${user} turn ${turn}. REPLY_WORDS=120`, stream: false }),
            }),
            { params: Promise.resolve({ id: conversation.id }) },
          );
          latencies.push(performance.now() - started);
          const body = (await response.json()) as { error: string | null };
          if (response.status !== 200 || body.error) errors.push(`user ${user} turn ${turn}: ${response.status} ${body.error}`);
        }
        return conversation.id;
      }),
    );
    expect(errors).toEqual([]);
    for (const id of ids) {
      await backgroundSettled(id);
      expect(await h.db.message.count({ where: { conversationId: id, role: "user" } })).toBe(TURNS);
      expect(await allViolations(h.db, id)).toEqual([]);
    }
    latencies.sort((a, b) => a - b);
    console.log(`load: ${USERS}×${TURNS} turns, p50 ${latencies[Math.floor(latencies.length / 2)]!.toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`);
  });
});
