// The recall acceptance at full size (a reduced run is in tests/integration/recall.test.ts):
// 2k, 4k, 8k and 32k windows, default settings, 400 turns, 40 plain-sentence facts, a summarizer
// that drops half of the facts it reads (the outside model's half_facts), through the real
// turn and PostgreSQL. A model that searches when it cannot see the answer must answer
// ≥ 38 of 40; a model that ignores tools, with automatic recall, ≥ 34. No request over the
// window, no truncation while summaries succeed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupHarness } from "../support/harness";
import { startOutsideModel, type OutsideModel } from "../support/outside-model/server";
import { recallRun } from "../support/recall-run";

const h = setupHarness();
let outside: OutsideModel;

beforeAll(async () => {
  outside = await startOutsideModel({ seed: 21 });
  process.env.OPENAI_BASE_URL = outside.url;
});
afterAll(async () => {
  await outside.close();
});

describe("recall acceptance: 400 turns, 40 facts, half of the facts lost by every summary", () => {
  const runs = [
    { name: "a model that searches (default settings)", chatMode: "search", floor: 38 },
    { name: "a model that searches, recall by tools alone", chatMode: "search", floor: 38, settings: { recallMode: "tools" } },
    { name: "a model that ignores tools (default settings: automatic recall)", chatMode: "ignore", floor: 34 },
  ] as const;
  for (const window of [8192, 32_768]) {
    for (const { name, chatMode, floor, ...rest } of runs) {
      it(`${window}: ${name} answers ≥ ${floor} of 40`, async () => {
        const settings = "settings" in rest ? { settings: { ...rest.settings } } : {};
        const result = await recallRun(h.db, h.user, outside, { window, turns: 400, facts: 40, chatMode, ...settings });
        console.log(`recall acceptance ${window} ${name}:`, JSON.stringify({ ...result, unanswered: result.unanswered.slice(0, 8) }));
        expect(result.planted).toBe(40);
        expect(result.answered).toBeGreaterThanOrEqual(floor);
        expect(result.overWindow).toBe(0);
        expect(result.largestPrompt).toBeLessThanOrEqual(window);
        expect(result.truncations).toBe(0);
        expect(result.appliedSummaries).toBeGreaterThan(0);
        // At 8k the summaries lose facts and only the tools bring them back; at 32k seven summaries over 400 turns keep them all in view.
        if ("settings" in rest && window === 8192) expect(result.toolCalls).toBeGreaterThan(0);
      }, 900_000);
    }
  }

  // Below 8k the history tools are not offered (they would take room a small window
  // needs), so the default settings answer through automatic recall alone, whatever the model does.
  for (const window of [2048, 4096]) {
    it(`${window}: default settings answer ≥ 34 of 40 through automatic recall; recall off, fewer`, async () => {
      const result = await recallRun(h.db, h.user, outside, { window, turns: 400, facts: 40, chatMode: "search" });
      console.log(`recall acceptance ${window} default:`, JSON.stringify({ ...result, unanswered: result.unanswered.slice(0, 8) }));
      expect(result.planted).toBe(40);
      expect(result.answered).toBeGreaterThanOrEqual(34);
      expect(result.historyToolOffers).toBe(0);
      expect(result.recallBlocks).toBeGreaterThan(0);
      expect(result.overWindow).toBe(0);
      expect(result.largestPrompt).toBeLessThanOrEqual(window);
      expect(result.truncations).toBe(0);

      const off = await recallRun(h.db, h.user, outside, { window, turns: 400, facts: 40, chatMode: "search", settings: { recallMode: "off" } });
      console.log(`recall acceptance ${window} off:`, JSON.stringify({ ...off, unanswered: off.unanswered.length }));
      expect(off.answered).toBeLessThan(34);
      expect(off.overWindow).toBe(0);
    }, 900_000);
  }

  // The control: the same run without recall loses what the summaries dropped, so the floors above can fail.
  it("8192, recall off: fewer than 34 of 40 answered", async () => {
    const result = await recallRun(h.db, h.user, outside, { window: 8192, turns: 400, facts: 40, chatMode: "search", settings: { recallMode: "off" } });
    console.log("recall acceptance 8192 off:", JSON.stringify({ ...result, unanswered: result.unanswered.length }));
    expect(result.answered).toBeLessThan(34);
    expect(result.overWindow).toBe(0);
  }, 900_000);
});
