// A tool session as a person sees it in the meter: once most rounds in view are calls
// whose results were cleared, automatic compression runs from the tool-session
// threshold (50%), and the meter's details say so and why, on a desktop and on a phone.
// The conversation is stored as the chat loop stores one (a task, eight read_file rounds,
// a clearing over the first seven), so no model is involved.
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { seedInTransaction } from "./support/database";
import { newConversation, saveTestSettings } from "./support/helpers";

const SHOTS = path.join(process.cwd(), "test-results", "tool-session");
const ROUNDS = 8;
const CLEARED = 7;

/** A task and ROUNDS tool rounds, the first CLEARED of them cleared, as the chat loop and the engine store them. */
async function seedToolSession(conversationId: string): Promise<void> {
  await seedInTransaction(async (client) => {
    const rows: { seq: number; role: string; content: string; toolCalls: string | null; toolCallId: string | null; toolName: string | null }[] = [
      { seq: 1, role: "user", content: "Read every module log and tell me what failed.", toolCalls: null, toolCallId: null, toolName: null },
    ];
    for (let round = 1; round <= ROUNDS; round++) {
      const id = `call_${round}`;
      rows.push({ seq: rows.length + 1, role: "assistant", content: `Reading module ${round}.`, toolCalls: JSON.stringify([{ id, name: "read_file", arguments: JSON.stringify({ path: `m${round}.log` }) }]), toolCallId: null, toolName: null });
      rows.push({ seq: rows.length + 1, role: "tool", content: `module ${round} log: ${"line ok ".repeat(300)}`, toolCalls: null, toolCallId: id, toolName: "read_file" });
    }
    await client.query(
      `INSERT INTO "Message" (id, "conversationId", seq, role, content, "toolCalls", "toolCallId", "toolName", "tokenCount", model, "toolOutcome", "updatedAt")
       SELECT gen_random_uuid()::text, $1, s, r::"MessageRole", c, tc::jsonb, ti, tn, CASE WHEN r = 'tool' THEN 610 ELSE 20 END,
              CASE WHEN r = 'assistant' THEN 'gpt-4o-mini' END, CASE WHEN r = 'tool' THEN 'done'::"ToolOutcome" END, now()
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS x(s, r, c, tc, ti, tn)`,
      [conversationId, rows.map((r) => r.seq), rows.map((r) => r.role), rows.map((r) => r.content), rows.map((r) => r.toolCalls), rows.map((r) => r.toolCallId), rows.map((r) => r.toolName)],
    );
    // The clearing: from the first call to the last cleared result (round CLEARED's result is seq 2 * CLEARED + 1).
    await client.query(
      `INSERT INTO "Compaction" (id, "conversationId", level, kind, trigger, strategy, "fromSeq", "toSeq", summary, "summaryTokens",
         "coveredMessageCount", "coveredTokens", "messagesBefore", "messagesAfter", "tokensBefore", "tokensAfter", "durationMs", background)
       VALUES (gen_random_uuid()::text, $1, 0, 'clearing', 'auto', 'clearing', 2, $2, $3, 0, $4, $5, $6, $6, $7, $8, 0, true)`,
      [conversationId, 2 * CLEARED + 1, `Cleared ${CLEARED} tool results from the model's view.`, CLEARED, CLEARED * 610, rows.length, 5400, 900],
    );
    await client.query(`UPDATE "Conversation" SET "lastSeq" = $2, "updatedAt" = now() WHERE id = $1`, [conversationId, rows.length]);
  });
}

/** The meter's details, opened as a person would: hover on a desktop, the header menu then a tap on a phone. */
async function openMeterDetails(page: Page, touch: boolean): Promise<Locator> {
  const meter = page.getByTestId("context-meter");
  if (touch) {
    await page.getByTestId("header-menu-toggle").tap();
    await meter.tap();
  } else {
    await meter.hover();
  }
  const details = page.getByTestId("context-meter-details");
  await expect(details).toBeVisible();
  return details;
}

const DEVICES = [
  { name: "desktop", viewport: { width: 1366, height: 900 }, touch: false },
  { name: "phone", viewport: { width: 390, height: 844 }, touch: true },
] as const;

for (const device of DEVICES) {
  test.describe(`${device.name} ${device.viewport.width}×${device.viewport.height}`, () => {
    test.use({ viewport: device.viewport, hasTouch: device.touch, isMobile: device.touch });

    test("a tool session's meter says compression runs from 50% and why; turned off, the auto threshold is back", async ({ page, request }) => {
      await saveTestSettings(request, {});
      const id = await newConversation(page);
      await seedToolSession(id);
      await page.reload();
      await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");

      const details = await openMeterDetails(page, device.touch);
      await expect(details).toContainText(/Auto compression at\s*50%/);
      const adjustments = details.getByTestId("context-meter-adjustments");
      await expect(adjustments).toContainText("threshold 80% → 50%");
      await expect(adjustments).toContainText("most rounds in view are tool calls whose results were cleared");
      // The details fit the screen.
      const box = (await details.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(device.viewport.width);
      await page.screenshot({ path: path.join(SHOTS, `${device.name}.png`) });

      // With the tool-session threshold at 0 the conversation is measured like any other.
      await saveTestSettings(request, { toolSessionThreshold: 0 });
      await page.reload();
      await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
      const plain = await openMeterDetails(page, device.touch);
      await expect(plain).toContainText(/Auto compression at\s*80%/);
      await expect(plain).not.toContainText("tool calls whose results were cleared");
    });
  });
}
