import { expect, test } from "./support/fixtures";
import { newConversation, resetModelServer, scriptTurns, SMALL_WINDOW, saveTestSettings } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, SMALL_WINDOW);
});

test("a word only in a level-2 compaction's originals: the hit opens the tree to it, and the link survives a reload", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, [
    "Turn 1: REPLY_WORDS=120 somewhere in here the quartermaster hid the xylocarpa manifest",
    ...Array.from({ length: 11 }, (_, i) => `Turn ${i + 2}: FACT k${i + 2}=v${i + 2} REPLY_WORDS=120`),
  ]);
  // The word sits only in an original message under the level-2 summary, in no summary.
  const api = await request.get(`/api/search?q=xylocarpa&conversationId=${id}`);
  expect(api.status()).toBe(200);
  const { results } = (await api.json()) as { results: { kind: string; anchor: string; compressed: boolean }[] };
  expect(results).toEqual([expect.objectContaining({ kind: "message", anchor: "m-1", compressed: true })]);

  await page.reload();
  const level2 = page.locator('[data-testid=compaction-block][data-level="2"]').first();
  await expect(level2).toBeVisible();
  await expect(level2).toHaveAttribute("data-expanded", "false");

  await page.getByTestId("sidebar-search").fill("xylocarpa");
  const hit = page.getByTestId("search-hit").first();
  await expect(hit).toHaveAttribute("data-anchor", "m-1");
  await expect(hit.locator("mark")).toHaveText("xylocarpa");
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/c/${id}#m-1$`));
  const target = level2.getByTestId("compaction-children").locator('[data-testid=message][data-seq="1"]');
  await expect(target).toBeVisible();
  await expect(target).toContainText("xylocarpa manifest");
  await expect(target).toHaveAttribute("data-search-target", "true");
  await expect(target).toBeInViewport();

  // A link to the old message works after a reload: the tree opens again, level by level.
  await page.reload();
  const reopened = page.locator('[data-testid=compaction-block][data-level="2"]').first();
  await expect(reopened).toHaveAttribute("data-expanded", "true");
  const again = reopened.locator('[data-testid=compaction-block][data-level="1"][data-expanded=true] [data-testid=message][data-seq="1"]');
  await expect(again).toBeVisible();
  await expect(again).toHaveAttribute("data-search-target", "true");
  await expect(again).toBeInViewport();

  // Find in the conversation (Ctrl+F) reaches a later message the same way; Escape closes the bar.
  await page.getByTestId("timeline").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+f");
  await page.getByTestId("find-input").fill("k3");
  await expect(page.getByTestId("find-count")).toHaveText(/^1 of \d+$/);
  await page.getByTestId("find-input").press("Enter");
  await expect(page.locator("[data-search-target=true]")).toBeVisible();
  await page.getByTestId("find-input").press("Escape");
  await expect(page.getByTestId("find-bar")).toHaveCount(0);

  // Syntax-only input gets an answer, not an error page.
  await page.getByTestId("sidebar-search").fill('"((( OR -');
  await expect(page.getByTestId("search-error")).toContainText("Nothing to search for");

  // A pasted query longer than the API takes stops at its limit instead of an error that names the "q" field.
  const box = page.getByTestId("sidebar-search");
  await box.fill("");
  await box.focus();
  await page.keyboard.insertText(`k3 ${"padding ".repeat(40)}`);
  expect((await box.inputValue()).length).toBe(200);
  await expect(page.getByTestId("search-error")).toHaveCount(0);
});
