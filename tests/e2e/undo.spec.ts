import { expect, test } from "./support/fixtures";
import { chatRequestFor, newConversation, resetModelServer, saveTestSettings, scriptTurns, sendMessage, untilSettled } from "./support/helpers";
import type { Page } from "@playwright/test";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, { keepRecentCount: 2, threshold: 0.95, maxSummaryTokensPerLevel: 3000 });
});

const TURNS = ["The boat is called Albatross.", "It sails on Fridays.", "The crew is four people.", "The harbour is Porto."];

async function compactedConversation(page: Page, request: Parameters<typeof scriptTurns>[0]): Promise<string> {
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, TURNS);
  await page.reload();
  // On a phone the header's controls fold into its menu.
  if ((page.viewportSize()?.width ?? 1366) < 768) await page.getByTestId("header-menu-toggle").click();
  await page.getByTestId("compress-now").click();
  await untilSettled(page, () => page.getByTestId("compact-run").click());
  await expect(page.getByTestId("compaction-block")).toHaveCount(1);
  return id;
}

test("Undo this compaction: confirm, the block is marked undone, its messages are back in the timeline and in the model's next request", async ({ page, request }) => {
  await compactedConversation(page, request);
  const block = page.getByTestId("compaction-block");
  const firstUser = page.locator("[data-testid=message][data-role=user]", { hasText: "The boat is called Albatross." });
  await expect(firstUser).toHaveCount(0);

  await block.getByTestId("undo-compaction").click();
  await expect(block.getByTestId("undo-compaction-confirm-text")).toContainText("over the compression threshold");
  // Cancel keeps everything; Escape too.
  await block.getByTestId("cancel-undo-compaction").click();
  await expect(block.getByTestId("undo-compaction-confirm-text")).toHaveCount(0);
  await block.getByTestId("undo-compaction").click();
  await page.keyboard.press("Escape");
  await expect(block.getByTestId("confirm-undo-compaction")).toHaveCount(0);

  await block.getByTestId("undo-compaction").click();
  await expect(block.getByTestId("confirm-undo-compaction")).toBeFocused();
  await page.keyboard.press("Enter");

  const undone = page.getByTestId("undone-block");
  await expect(undone).toBeVisible();
  await expect(undone.getByTestId("undone-badge")).toHaveText("undone");
  await expect(undone.getByTestId("undone-meta")).toContainText("undone by");
  await expect(page.getByTestId("compaction-block")).toHaveCount(0);
  await expect(firstUser).toBeVisible();
  // The record's text can still be read.
  await undone.getByTestId("compaction-summary-more").click();
  await expect(undone.getByTestId("compaction-summary")).not.toHaveText("Hide the summary");

  // Recorded: the Activity panel lists it.
  await page.getByTestId("activity-toggle").click();
  await expect(page.getByTestId("undone-activity")).toContainText("undone by");

  // After a reload it is still there, and the model's next request carries the originals again.
  await page.reload();
  await expect(page.getByTestId("undone-block")).toBeVisible();
  await sendMessage(page, "Which harbour was it?");
  const sent = await chatRequestFor(request, "Which harbour was it?");
  expect(sent.some((m) => m.role === "user" && m.content === "The boat is called Albatross.")).toBe(true);
  expect(sent.some((m) => m.role === "system" && typeof m.content === "string" && m.content.includes("[Summary of messages"))).toBe(false);
});

test("the pinned list shows every pinned message and opens one in the timeline, under a summary too", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, TURNS);
  await page.reload();
  const first = page.locator("[data-testid=message][data-seq='1']");
  await first.hover();
  await first.getByTestId("pin-toggle").click();
  await expect(first.getByTestId("pin-toggle")).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("compress-now").click();
  await untilSettled(page, () => page.getByTestId("compact-run").click());
  await expect(page.getByTestId("compaction-block")).toHaveCount(1);

  await page.getByTestId("pinned-list-open").click();
  const dialog = page.getByTestId("pinned-list");
  await expect(dialog).toBeVisible();
  const entry = dialog.getByTestId("pinned-entry");
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("#1");
  await expect(entry).toContainText("You");
  await expect(entry).toContainText("The boat is called Albatross.");
  // Keyboard: the entry is a button; Enter opens it.
  await entry.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).not.toBeVisible();
  const target = page.locator("[data-testid=message][data-seq='1'][data-search-target=true]");
  await expect(target).toBeVisible();
  await expect(target).toBeInViewport();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("undo and the pinned list work at 390×844", async ({ page, request }) => {
    await compactedConversation(page, request);
    const block = page.getByTestId("compaction-block");
    await block.getByTestId("undo-compaction").click();
    const confirm = block.getByTestId("confirm-undo-compaction");
    await expect(confirm).toBeInViewport();
    await page.screenshot({ path: "test-results/undo-confirm-phone.png" });
    await confirm.click();
    await expect(page.getByTestId("undone-block")).toBeVisible();
    const box = await page.getByTestId("undone-block").boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: "test-results/undone-phone.png" });

    await page.getByTestId("header-menu-toggle").click();
    await page.getByTestId("pinned-list-open").click();
    const dialog = page.getByTestId("pinned-list");
    await expect(dialog.getByTestId("pinned-list-empty")).toBeVisible();
    const dialogBox = await dialog.boundingBox();
    expect(dialogBox!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: "test-results/pinned-phone.png" });
    await page.keyboard.press("Escape");
    await expect(dialog).not.toBeVisible();
  });
});
