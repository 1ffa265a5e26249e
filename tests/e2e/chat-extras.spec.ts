// Issue 14's smaller defects and the controls people expect: commands in any case,
// Escape that cancels, a stopped reply that is not an error, Copy, the tab title, a
// skip link and a shortcut to the message box.
import { ADMIN_STATE } from "./support/accounts";
import { expect, test } from "./support/fixtures";
import { chatRequestFor, newConversation, resetModelServer, saveTestSettings, sendAndStop, sendMessage, untilSettled } from "./support/helpers";

test.use({ storageState: ADMIN_STATE, permissions: ["clipboard-read", "clipboard-write"] });

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

test("/Compact in capitals is a command, and Compress now waits for messages", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  await expect(page.getByTestId("compress-now")).toBeDisabled();
  await expect(page.getByTestId("composer")).toBeFocused();
  await untilSettled(page, async () => {
    await page.getByTestId("composer").fill("/Compact keep the names");
    await page.getByTestId("composer").press("Enter");
  });
  await expect(page.getByTestId("message")).toHaveCount(0);
  await expect(page.getByTestId("notice").first()).toBeVisible();
});

test("Escape cancels deleting the last turn; the editor says how to save", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  await sendMessage(page, "Something to keep");
  await page.getByTestId("delete-last-turn").click();
  await expect(page.getByTestId("confirm-delete-last-turn")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("confirm-delete-last-turn")).toHaveCount(0);
  await expect(page.getByTestId("message")).toHaveCount(2);

  const mine = page.locator("[data-testid=message][data-role=user]").first();
  await mine.hover();
  await mine.getByTestId("edit-message").click();
  await expect(page.getByTestId("edit-message-hint")).toContainText("Ctrl+Enter save");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("edit-message-input")).toHaveCount(0);
});

test("a reply the user stopped is marked stopped, not shown as an error", async ({ page, request }) => {
  await page.goto("/");
  await newConversation(page);
  await sendAndStop(page, request, "Tell me a lot REPLY_WORDS=300");
  const stopped = page.locator("[data-testid=message][data-role=assistant]").last();
  await expect(stopped).toHaveAttribute("data-status", "stopped");
  await expect(stopped.getByTestId("message-error")).toHaveCount(0);
  await expect(page.locator("[data-testid=notice][data-tone=error]")).toHaveCount(0);
});

test("Copy a message and a code block; the tab shows the title; skip link and shortcut reach the composer", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  const text = "Run this:\n\n```\nnpm run dev -- --port 3000\n```";
  await sendMessage(page, text);
  const mine = page.locator("[data-testid=message][data-role=user]").first();
  await mine.hover();
  await mine.getByTestId("copy-message").click();
  await expect(mine.getByTestId("copy-message")).toHaveAttribute("data-state", "copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
  await mine.locator("pre").hover();
  await mine.getByTestId("copy-code").click();
  expect((await page.evaluate(() => navigator.clipboard.readText())).trim()).toBe("npm run dev -- --port 3000");

  // Named after what the first message says, without its fences (lib/conversation-title.ts).
  await expect(page).toHaveTitle("Run this: npm run dev -- --port 3000 · Strata");

  await page.getByTestId("conversation-heading").click();
  await page.keyboard.press("Shift+Escape");
  await expect(page.getByTestId("composer")).toBeFocused();
  await expect(page.getByTestId("composer")).toHaveValue("");

  await page.reload();
  await expect(page.getByTestId("composer")).toBeFocused();
  // The skip link is the first thing Tab reaches on the page; Enter on it goes to the composer.
  const firstTabbable = await page.evaluate(
    () => document.querySelector<HTMLElement>('a[href], button:not([disabled]), input, textarea, select, [tabindex]:not([tabindex="-1"])')?.dataset.testid,
  );
  expect(firstTabbable).toBe("skip-link");
  await page.getByTestId("skip-link").focus();
  await expect(page.getByTestId("skip-link")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("composer")).toBeFocused();
});

test("pinning a message inside a compaction brings it back into the model's view", async ({ page, request }) => {
  await saveTestSettings(request, { keepRecentCount: 2, threshold: 0.95, maxSummaryTokensPerLevel: 3000 });
  await page.goto("/");
  const id = await newConversation(page);
  const secret = "The code word is heliotrope.";
  const response = await request.post(`/api/conversations/${id}/messages`, { data: { content: "hello one" } });
  expect(response.ok()).toBeTruthy();
  for (const content of [secret, "three", "four"]) {
    expect((await request.post(`/api/conversations/${id}/messages`, { data: { content } })).ok()).toBeTruthy();
  }
  await page.reload();
  await page.getByTestId("compress-now").click();
  await untilSettled(page, () => page.getByTestId("compact-run").click());
  const block = page.getByTestId("compaction-block").first();
  await expect(block).toBeVisible();
  await block.getByTestId("compaction-toggle").click();
  const inside = block.locator("[data-testid=message][data-role=user]", { hasText: secret });
  await inside.hover();
  await inside.getByTestId("pin-toggle").click();
  await expect(inside.getByTestId("pin-toggle")).toHaveAttribute("aria-pressed", "true");
  await expect(inside).toContainText("in the model's view beside the summary");

  await sendMessage(page, "What is the code word?");
  const sent = await chatRequestFor(request, "What is the code word?");
  expect(sent.some((m) => m.role === "user" && m.content === secret)).toBe(true);
});
