import { afterAll, beforeAll, describe, it } from "vitest";
import { setupHarness } from "../support/harness";
import { startOutsideModel, type OutsideModel } from "../support/outside-model/server";
import { recallRun } from "../support/recall-run";
const h = setupHarness();
let outside: OutsideModel;
beforeAll(async () => { outside = await startOutsideModel({ seed: 21 }); process.env.OPENAI_BASE_URL = outside.url; });
afterAll(async () => { await outside.close(); });
describe("small windows", () => {
  for (const window of [2048, 4096]) for (const chatMode of ["search", "ignore"] as const) for (const recallMode of ["both", "off"] as const) {
    it(`${window} ${chatMode} ${recallMode}`, async () => {
      const r = await recallRun(h.db, h.user, outside, { window, turns: 400, facts: 40, chatMode, settings: { recallMode } });
      console.log(`SMALL ${window} ${chatMode} ${recallMode}:`, JSON.stringify({ ...r, unanswered: r.unanswered.length }));
    }, 1_800_000);
  }
});
