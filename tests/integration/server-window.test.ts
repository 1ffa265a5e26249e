// A server that serves a smaller window than Strata assumes and says nothing (Ollama
// beyond its num_ctx drops the start of a request that is too long): from the first
// reply whose usage shows the cut, the window it kept becomes the user's setting for the
// model, the user is told, and compression fits every later request to it. The outside
// model does the cutting and the counting, by its own rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backgroundSettled } from "../../lib/chat/compressor";
import { readUserSettings } from "../../lib/db/settings";
import { newConversation, send, setupHarness } from "../support/harness";
import { startOutsideModel, type OutsideModel } from "../support/outside-model/server";
import { mulberry32 } from "../support/outside-model/behaviour";
import { chatter } from "../support/simulation";
import { recallFact } from "../support/recall-run";

const h = setupHarness();
let outside: OutsideModel;
// Not in the model table: Strata assumes today's typical window (128k).
const MODEL = "local-llama:8b";
const SERVED = 3000;

beforeAll(async () => {
  outside = await startOutsideModel({ truncateAt: SERVED, chatMode: "directed", summaryMode: "drop_facts", seed: 11 });
  process.env.OPENAI_BASE_URL = outside.url;
});
afterAll(async () => {
  await outside.close();
});

describe("a server that cuts requests to a smaller window without an error", () => {
  it("is noticed by the second cut: the window it kept becomes the setting, the user is told once, nothing is cut again", async () => {
    const conversation = await newConversation(MODEL);
    const rng = mulberry32(5);
    const notices: string[] = [];
    for (let turn = 0; turn < 40; turn++) {
      const fact = turn < 2 ? `\n${recallFact(turn).sentence}` : "";
      const events = await send(conversation.id, `${chatter(rng, 60)} <<reply 100>>${fact}`);
      expect(events.find((event) => event.type === "error")).toBeUndefined();
      for (const event of events) if (event.type === "notice") notices.push(event.message);
      await backgroundSettled(conversation.id);
    }

    // The first cut drops a message or two and counts a little more than the reply before:
    // no sign yet. The second counts no more although more was sent: the server kept what it serves.
    const cut = outside.requests().filter((request) => request.truncatedFrom !== undefined);
    expect(cut).toHaveLength(2);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/read only [\d,]+ of the about [\d,]+ tokens/);
    const { settings } = await readUserSettings(h.db, h.user.id);
    expect(settings.contextWindowOverrides[MODEL]).toBe(cut[1]!.promptTokens);
    expect(settings.contextWindowOverrides[MODEL]).toBeLessThanOrEqual(SERVED);
    const compactions = await h.db.compaction.count({ where: { conversationId: conversation.id, supersededById: null } });
    expect(compactions).toBeGreaterThan(0);

    // The stored conversation lost nothing: a fact from the start, dropped by the summaries, is quoted back.
    const events = await send(conversation.id, `<<recall ${recallFact(0).key}>>`);
    const reply = events.flatMap((event) => (event.type === "message" ? [event.message.content] : [])).at(-1);
    expect(reply).toContain(recallFact(0).value);
    expect(outside.requests().filter((request) => request.truncatedFrom !== undefined)).toHaveLength(2);
  }, 180_000);
});
