import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { newConversation, resetModelServer, screenshotPath, scriptTurns, sendMessage, seriousAxeViolations, SMALL_WINDOW, saveTestSettings } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, SMALL_WINDOW);
});

test("(b) compactions stack up to level 2 and open down to the original messages", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  // A scripted history: eleven turns through the API, the twelfth typed in the UI.
  await scriptTurns(
    request,
    id,
    Array.from({ length: 11 }, (_, i) => `Turn ${i + 1}: FACT k${i + 1}=v${i + 1} REPLY_WORDS=120`),
  );
  await page.reload();
  await sendMessage(page, "Turn 12: FACT k12=v12 REPLY_WORDS=120");

  const level2 = page.locator('[data-testid=compaction-block][data-level="2"]').first();
  await expect(level2).toBeVisible();
  await expect(level2).toHaveAttribute("data-kind", "summary");
  await expect(level2).toHaveAttribute("data-trigger", "auto");
  await level2.getByTestId("compaction-summary-more").click();
  await expect(level2.getByTestId("compaction-summary")).toContainText("FACT k1=v1");
  await expect(level2.getByTestId("compaction-stats")).toContainText(/\d+ messages · [\d,]+ → [\d,]+ tokens/);

  // The meter shows summaries and recent messages; its popover has the numbers.
  await page.getByTestId("context-meter").hover();
  await expect(page.getByTestId("context-meter-details")).toContainText("Summaries");
  await page.screenshot({ path: screenshotPath("context-meter"), clip: { x: 560, y: 0, width: 720, height: 320 } });
  // Away from the meter and its details (the pointer over the details keeps them open).
  await page.mouse.move(20, 700);
  await expect(page.getByTestId("context-meter-details")).toBeHidden();

  // Open level 2: the level-1 summaries it folded in, then the messages summarized with them.
  const toggle2 = level2.getByTestId("compaction-toggle").first();
  await expect(toggle2).toHaveAttribute("aria-expanded", "false");
  await toggle2.click();
  await expect(toggle2).toHaveAttribute("aria-expanded", "true");
  const children2 = level2.getByTestId("compaction-children").first();
  const level1 = children2.locator('[data-testid=compaction-block][data-level="1"]');
  await expect(level1.first()).toBeVisible();
  expect((await level1.count()) + (await children2.locator(":scope > [data-testid=message], [data-testid=message]").count())).toBeGreaterThanOrEqual(2);

  // Open the first level-1 block: the original messages, word for word.
  const first1 = level1.first();
  await first1.getByTestId("compaction-toggle").click();
  const originals = first1.getByTestId("compaction-children").getByTestId("message");
  await expect(originals.first()).toHaveAttribute("data-seq", "1");
  await expect(originals.first()).toHaveAttribute("data-role", "user");
  await expect(originals.first()).toContainText("Turn 1: FACT k1=v1");
  await expect(first1.getByTestId("compaction-children").locator('[data-testid=message][data-role=assistant]').first()).toBeVisible();
  await level2.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath("chat-compaction-tree") });
  // The chat view with the tree open, as a screen reader or keyboard user meets it.
  expect(await seriousAxeViolations(page)).toEqual([]);

  // Collapse the level-1 block: back to its summary.
  await first1.getByTestId("compaction-toggle").click();
  await expect(first1.getByTestId("compaction-toggle")).toHaveAttribute("aria-expanded", "false");
  await expect(first1.getByTestId("compaction-summary")).toBeVisible();
  await expect(first1.getByTestId("compaction-children")).toHaveCount(0);

  // Reload: the tree is stored, not a view-only state, and what was open is open again
  // (level 2), what was closed closed (its level-1 block).
  await page.reload();
  const reloaded2 = page.locator('[data-testid=compaction-block][data-level="2"]').first();
  await expect(reloaded2).toBeVisible();
  await expect(reloaded2.getByTestId("compaction-toggle").first()).toHaveAttribute("aria-expanded", "true");
  await expect(reloaded2.locator('[data-testid=compaction-block][data-level="1"]').first().getByTestId("compaction-toggle")).toHaveAttribute(
    "aria-expanded",
    "false",
  );
  const reloaded1 = reloaded2.getByTestId("compaction-children").first().locator('[data-testid=compaction-block][data-level="1"]').first();
  await reloaded1.getByTestId("compaction-toggle").click();
  await expect(reloaded1.getByTestId("compaction-children").getByTestId("message").first()).toContainText("Turn 1: FACT k1=v1");
  await reloaded2.getByTestId("compaction-toggle").first().click();
  await expect(reloaded2.getByTestId("compaction-summary").first()).toBeVisible();

  // The model still knows the oldest fact through the summaries.
  await sendMessage(page, "RECALL k1?");
  await expect(page.locator("[data-testid=message][data-role=assistant]").last()).toContainText("k1=v1");
});

/** A conversation of `turns` short turns compacted by hand into one block (all but the last two messages), opened afresh. */
async function oneCompactedBlock(page: Page, request: APIRequestContext, turns: number): Promise<void> {
  await saveTestSettings(request, { threshold: 0.99, preemptiveThreshold: 0, keepRecentCount: 2 });
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, Array.from({ length: turns }, (_, i) => `Line ${i + 1} REPLY_WORDS=5`));
  const compacted = await request.post(`/api/conversations/${id}/compact`, { data: {} });
  expect(compacted.ok(), await compacted.text()).toBeTruthy();
  await page.reload();
}

test("a large compaction loads its originals page by page as they scroll into view", async ({ page, request }) => {
  test.setTimeout(120_000);
  await oneCompactedBlock(page, request, 32);
  const block = page.getByTestId("compaction-block").first();
  await block.getByTestId("compaction-toggle").click();
  const originals = block.getByTestId("compaction-children").getByTestId("message");
  // The first page (50), then the rest once its end is on screen (it may be at once): no "Load more" click.
  await expect(originals.nth(49)).toBeAttached();
  await originals.nth(49).scrollIntoViewIfNeeded();
  await expect.poll(() => originals.count()).toBeGreaterThan(50);
  await expect(block.getByTestId("compaction-load-more")).toHaveCount(0);
});

test("a page of originals that fails to load says why, and Try again reads it", async ({ page, request }) => {
  test.setTimeout(120_000);
  await oneCompactedBlock(page, request, 12);
  // The server is unavailable for the first read only.
  let refused = 0;
  await page.route("**/api/compactions/*/children*", async (route) => {
    if (refused++ > 0) return route.continue();
    await route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: { code: "unavailable", message: "The database is unavailable." } }) });
  });
  const block = page.getByTestId("compaction-block").first();
  await block.getByTestId("compaction-toggle").click();
  const children = block.getByTestId("compaction-children");
  await expect(children.getByRole("alert")).toContainText("Could not load: The database is unavailable.");
  await expect(children.getByTestId("message")).toHaveCount(0);
  await children.getByRole("button", { name: "Try again" }).click();
  await expect(children.getByTestId("message").first()).toContainText("Line 1");
  await expect(children.getByRole("alert")).toHaveCount(0);
  expect(refused).toBe(2);
});
