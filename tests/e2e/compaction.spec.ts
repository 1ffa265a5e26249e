import { expect, test } from "./support/fixtures";
import {
  addFault,
  MODEL_SERVER,
  newConversation,
  resetModelServer,
  screenshotPath,
  scriptTurns,
  sendMessage,
  SMALL_WINDOW,
  untilSettled,
  saveTestSettings,
} from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
});

test("(d) manual compaction: preview, edit, apply; /compact with instructions", async ({ page, request }) => {
  // Room for two level-1 summaries side by side: the model server counts the tool definitions
  // and this text about half again as high as the app does, and in SMALL_WINDOW's 2,000 tokens
  // the second /compact would fold the first summary into a level-2 one instead.
  await saveTestSettings(request, { ...SMALL_WINDOW, contextWindowOverrides: { "gpt-4o-mini": 3000 }, threshold: 0.95, maxSummaryTokensPerLevel: 3000 });
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, ["FACT city=Lisbon hello", "FACT pet=otter", "FACT tool=vim", "FACT lang=rust", "FACT os=linux"]);
  await page.reload();
  await expect(page.getByTestId("message")).toHaveCount(10);

  await page.getByTestId("compress-now").click();
  await page.getByTestId("compact-instructions").fill("Keep every FACT line");
  await page.getByTestId("compact-preview-button").click();
  const preview = page.getByTestId("compaction-preview");
  await expect(preview).toBeVisible();
  const summary = preview.getByTestId("preview-summary");
  await expect(summary).toHaveValue(/FACT city=Lisbon/);
  await summary.fill(`${await summary.inputValue()}\nFACT edited=yes`);
  await page.screenshot({ path: screenshotPath("compaction-preview") });
  await untilSettled(page, () => preview.getByTestId("preview-apply").click());
  await expect(preview).toBeHidden();

  const manual = page.locator('[data-testid=compaction-block][data-trigger="manual"]');
  await expect(manual).toHaveCount(1);
  // Collapsed, a summary shows its first line; the edit was appended at the end.
  await manual.getByTestId("compaction-summary-more").click();
  await expect(manual.getByTestId("compaction-summary")).toContainText("FACT edited=yes");
  await expect(manual.getByTestId("compaction-summary")).toContainText("Keep every FACT line");
  // Kept recent messages stay outside the block.
  await expect(page.locator("[data-testid=timeline] [data-testid=message]")).toHaveCount(4);

  // `/compact <instructions>` from the composer runs a compaction instead of a message.
  await scriptTurns(request, id, ["FACT editor=helix", "FACT shell=fish", "FACT font=iosevka"]);
  await page.reload();
  await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { summaryLatencyMs: 1500 } });
  // Counted once the timeline has drawn them (it renders after hydration): the two kept and the three new.
  await expect(page.locator("[data-testid=timeline] [data-testid=message][data-role=user]")).toHaveCount(5);
  const userMessagesBefore = 5;
  await untilSettled(page, async () => {
    await page.getByTestId("composer").fill("/compact remember the editor");
    await page.getByTestId("composer").press("Enter");
    await expect(page.getByTestId("compression-status")).toContainText("Compressing");
  });
  await expect(page.getByTestId("compression-status")).toHaveCount(0);
  await expect(manual).toHaveCount(2);
  await expect(manual.last().getByTestId("compaction-summary")).toContainText("remember the editor");
  expect(await page.locator("[data-testid=message][data-role=user]").count()).toBeLessThanOrEqual(userMessagesBefore);
  await expect(page.locator("[data-testid=message]", { hasText: "/compact" })).toHaveCount(0);
});

test("(e) a failing summary model shows a notice and the chat continues", async ({ page, request }) => {
  await saveTestSettings(request, { ...SMALL_WINDOW, maxSummaryTokensPerLevel: 3000 });
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, Array.from({ length: 7 }, (_, i) => `Turn ${i + 1}: FACT f${i + 1}=y REPLY_WORDS=120`));
  await page.reload();
  await page.getByTestId("activity-toggle").click();
  await expect(page.getByTestId("activity-panel")).toBeVisible();

  await addFault(request, { type: "http_500", target: "summary", times: 20 });
  // Long enough to cross the threshold before its call whatever the earlier turns left in view.
  await sendMessage(page, `Turn 8: FACT f8=y REPLY_WORDS=120 ${"filler words for the threshold ".repeat(40)}`);
  const notice = page.getByTestId("notice").first();
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(/compression failed/i);
  // The turn still got its reply.
  const last = page.locator("[data-testid=timeline] [data-testid=message]").last();
  await expect(last).toHaveAttribute("data-role", "assistant");
  await expect(last).toHaveAttribute("data-status", "complete");
  await expect(page.locator('[data-testid=attempt][data-outcome="failed"]').first()).toBeVisible();

  // Once the summary model recovers, compression catches up.
  await request.delete(`${MODEL_SERVER}/__admin/faults`);
  await sendMessage(page, "Turn 9: FACT f9=y");
  await expect(page.getByTestId("compaction-block").first()).toBeVisible();
  await expect(page.locator('[data-testid=attempt][data-outcome="applied"]').first()).toBeVisible();
});

test("a chat model error offers Retry", async ({ page, request }) => {
  await saveTestSettings(request, {});
  await page.goto("/");
  await newConversation(page);
  await addFault(request, { type: "http_500", target: "chat", times: 3 });
  await sendMessage(page, "This first try fails");
  await expect(page.getByTestId("retry-button")).toBeVisible();
  // Said once, beside the button that fixes it: no notice repeats it.
  await expect(page.getByTestId("retry-row")).toContainText(/model failed/i);
  await expect(page.locator("[data-testid=notice][data-tone=error]")).toHaveCount(0);
  const said = (await page.getByTestId("retry-row").locator("p").textContent())!;
  expect(said).toMatch(/^The model failed: .*500/);
  // A reload still says why, from what was stored with the message.
  await page.reload();
  await expect(page.getByTestId("retry-row").locator("p")).toHaveText(said);
  await request.delete(`${MODEL_SERVER}/__admin/faults`);
  await untilSettled(page, () => page.getByTestId("retry-button").click());
  await expect(page.locator("[data-testid=message][data-role=assistant]").last()).toContainText("you said");
  await expect(page.getByTestId("retry-button")).toHaveCount(0);
  await expect(page.getByTestId("message-unanswered")).toHaveCount(0);
});

test("a message left unanswered says why once the conversation goes on past it", async ({ page, request }) => {
  await saveTestSettings(request, {});
  await newConversation(page);
  await addFault(request, { type: "http_500", target: "chat", times: 3 });
  await sendMessage(page, "This one is never answered");
  const said = (await page.getByTestId("retry-row").locator("p").textContent())!;
  await request.delete(`${MODEL_SERVER}/__admin/faults`);
  await sendMessage(page, "So I ask again");
  const users = page.locator("[data-testid=message][data-role=user]");
  await expect(users.first().getByTestId("message-unanswered")).toHaveText(`Not answered. ${said}`);
  await expect(users.last().getByTestId("message-unanswered")).toHaveCount(0);
  await expect(page.getByTestId("retry-row")).toHaveCount(0);
  await page.reload();
  await expect(users.first().getByTestId("message-unanswered")).toHaveText(`Not answered. ${said}`);
});
