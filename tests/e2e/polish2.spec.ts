// Rough edges, part two: the new API token can be copied and revoke asks first, and a
// reply regenerated in the middle of a conversation says where the later turns went.
import { expect, test } from "./support/fixtures";
import { resetModelServer, saveTestSettings, seriousAxeViolations } from "./support/helpers";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

test("a new API token has a Copy button that says Copied; revoke asks first, by mouse and by keyboard", async ({ page }) => {
  await page.goto("/account");
  const name = `copy-me ${Date.now()}`;
  await page.getByTestId("token-name").fill(name);
  await page.getByTestId("token-create").click();
  const token = (await page.getByTestId("token-value").textContent())!.trim();

  const copy = page.getByTestId("token-copy");
  await expect(copy).toHaveText("Copy");
  await copy.click();
  await expect(copy).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  expect(await seriousAxeViolations(page)).toEqual([]);

  const row = page.getByTestId("token-row").filter({ hasText: name });
  // Cancel keeps the token, and the focus goes back to Revoke.
  await row.getByTestId("token-revoke").click();
  await expect(row.getByTestId("token-revoke-confirm")).toContainText("Revoke?");
  await row.getByTestId("token-revoke-cancel").click();
  await expect(row.getByTestId("token-revoke-confirm")).toHaveCount(0);
  await expect(row.getByTestId("token-revoke")).toBeFocused();

  // By keyboard: Enter asks, the focus is on Yes, Escape cancels; Enter twice revokes.
  await page.keyboard.press("Enter");
  await expect(row.getByTestId("token-revoke-yes")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(row.getByTestId("token-revoke")).toBeFocused();
  await page.reload();
  await expect(row).toHaveCount(1);
  await row.getByTestId("token-revoke").focus();
  await page.keyboard.press("Enter");
  await expect(row.getByTestId("token-revoke-yes")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("token-row").filter({ hasText: name })).toHaveCount(0);
});
