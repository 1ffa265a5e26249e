import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { freshContext, signUpWithForm } from "./support/accounts";
import { newConversation, resetModelServer, saveTestSettings, scriptTurns, seriousAxeViolations, untilSettled } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  // Few recent messages kept, so "Compress now" has something to summarize.
  await saveTestSettings(request, { keepRecentCount: 2, threshold: 0.95, maxSummaryTokensPerLevel: 3000 });
});

async function createLink(page: Page): Promise<string> {
  await page.getByTestId("share-open").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Expires after").selectOption("7");
  await dialog.getByTestId("share-create").click();
  await expect(dialog.getByTestId("share-status")).toContainText("Copy it now");
  await expect(dialog.getByTestId("share-copy")).toBeVisible();
  const url = await dialog.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByTestId("share-link")).toHaveCount(1);
  await expect(dialog.getByTestId("share-link-opened")).toHaveText("Not yet");
  return url;
}

test("Share…: a signed-out reader opens the link read-only, opens a summary down to an original; after revoke the link is not found", async ({ page, request, browser }) => {
  await page.goto("/");
  const conversationId = await newConversation(page);
  expect((await request.patch(`/api/conversations/${conversationId}`, { data: { title: "Harbour log" } })).ok()).toBeTruthy();
  await scriptTurns(request, conversationId, ["The boat is called Albatross.", "It sails on Fridays.", "The crew is four people.", "The harbour is Porto."]);
  await page.reload();
  await page.getByTestId("compress-now").click();
  await untilSettled(page, () => page.getByTestId("compact-run").click());
  await expect(page.getByTestId("compaction-block").first()).toBeVisible();

  const url = await createLink(page);
  await page.screenshot({ path: test.info().outputPath("share-dialog-desktop.png") });
  await page.getByTestId("share-dialog").getByRole("button", { name: "Close" }).click();

  // Someone without a session.
  const reader = await freshContext(browser);
  const shared = await reader.newPage();
  const response = await shared.goto(url);
  expect(response?.status()).toBe(200);
  const headers = response!.headers();
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["cache-control"]).toMatch(/no-store/);
  expect(headers["cache-control"]).not.toMatch(/public/);
  await expect(shared.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(shared.getByTestId("shared-conversation")).toHaveAttribute("data-ready", "true");
  await expect(shared.getByTestId("shared-heading")).toHaveText("Harbour log");
  await expect(shared.getByTestId("message").first()).toBeVisible();
  // No app shell, composer or owner controls.
  for (const testId of ["conversation-list", "new-conversation", "composer", "share-open", "compress-now", "continue-from-summary", "edit-message", "regenerate-reply", "pin-toggle"]) {
    await expect(shared.getByTestId(testId)).toHaveCount(0);
  }
  await expect(shared.getByRole("textbox", { name: /message/i })).toHaveCount(0);
  const block = shared.getByTestId("compaction-block").first();
  await block.getByTestId("compaction-toggle").click();
  const children = block.getByTestId("compaction-children");
  await expect(children.locator("[data-testid=message][data-role=user]").filter({ hasText: "The boat is called Albatross." })).toBeVisible();
  expect(await seriousAxeViolations(shared)).toEqual([]);
  await shared.screenshot({ path: test.info().outputPath("shared-desktop.png") });

  // At phone size, the same link.
  const phone = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 390, height: 844 } });
  const phonePage = await phone.newPage();
  await phonePage.goto(url);
  await expect(phonePage.getByTestId("shared-conversation")).toHaveAttribute("data-ready", "true");
  await expect(phonePage.getByTestId("compaction-block").first()).toBeVisible();
  expect(await phonePage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await phonePage.screenshot({ path: test.info().outputPath("shared-phone.png") });
  await phone.close();

  // The owner sees it was opened, and revokes it (after confirming).
  await page.getByTestId("share-open").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog.getByTestId("share-link-opened")).not.toHaveText("Not yet");
  page.once("dialog", (question) => void question.accept());
  await dialog.getByTestId("share-link-revoke").click();
  await expect(dialog.getByTestId("share-links-empty")).toBeVisible();

  const after = await shared.goto(url);
  expect(after?.status()).toBe(404);
  await expect(shared.getByTestId("not-found")).toBeVisible();
  await expect(shared.getByTestId("message")).toHaveCount(0);
  // The same page as for a link that never existed.
  const unknown = await shared.goto(url.replace(/[A-Za-z0-9_-]{43}$/, "A".repeat(43)));
  expect(unknown?.status()).toBe(404);
  expect(await shared.getByTestId("not-found").innerText()).toBe(await (async () => {
    await shared.goto(url);
    return shared.getByTestId("not-found").innerText();
  })());
  await reader.close();
});

test("another signed-in user opens a shared link read-only, and sees nothing of the owner's", async ({ page, request, browser }) => {
  await page.goto("/");
  const conversationId = await newConversation(page);
  await scriptTurns(request, conversationId, ["Only this conversation is shared."]);
  await page.reload();
  const url = await createLink(page);

  const other = await freshContext(browser);
  const otherPage = await other.newPage();
  await signUpWithForm(otherPage, `reader-${Date.now()}@example.com`, "a passphrase for tests");
  await otherPage.goto(url);
  await expect(otherPage.getByTestId("shared-conversation")).toHaveAttribute("data-ready", "true");
  await expect(otherPage.locator("[data-testid=message][data-role=user]").filter({ hasText: "Only this conversation is shared." })).toBeVisible();
  await expect(otherPage.getByTestId("conversation-list")).toHaveCount(0);
  // The owner's conversation stays theirs: its own address is not found for the reader.
  const own = await otherPage.goto(`/c/${conversationId}`);
  expect(own?.status()).toBe(404);
  await other.close();
});
