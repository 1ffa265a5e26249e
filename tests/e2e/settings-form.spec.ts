// The settings form (issue 14, defect 7): unsaved edits are not lost without a
// question, reset asks and keeps the context-window overrides, every error shows at
// once in words, and the focus goes to the first one.
import { expect, test } from "./support/fixtures";
import { readSettings, saveTestSettings } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await saveTestSettings(request, { contextWindowOverrides: { "my-local-model": 32_000 } });
});

const field = (page: import("@playwright/test").Page, name: string) => page.locator(`[data-setting=${name}] input, [data-setting=${name}] select`).first();

test("asks before leaving with unsaved edits", async ({ page }) => {
  await page.goto("/settings");
  await field(page, "keepRecentCount").fill("9");
  await expect(page.getByTestId("settings-unsaved")).toBeVisible();
  const questions: string[] = [];
  page.once("dialog", (dialog) => {
    questions.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByTestId("sidebar-account").click();
  await expect.poll(() => questions).toEqual(["Your settings have unsaved changes. Leave this page and lose them?"]);
  await expect(page).toHaveURL(/\/settings$/);
  await expect(field(page, "keepRecentCount")).toHaveValue("9");

  page.once("dialog", (dialog) => void dialog.accept());
  await page.locator('a[href="/"]').first().click();
  await expect(page).not.toHaveURL(/\/settings$/);
});

test("reset asks first and keeps the context-window overrides", async ({ page, request }) => {
  await saveTestSettings(request, { keepRecentCount: 9, contextWindowOverrides: { "my-local-model": 32_000 } });
  await page.goto("/settings");
  page.once("dialog", (dialog) => void dialog.dismiss());
  await page.getByTestId("settings-reset").click();
  await expect(field(page, "keepRecentCount")).toHaveValue("9");
  expect((await readSettings(request)).keepRecentCount).toBe(9);

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("settings-reset").click();
  await expect(page.getByTestId("settings-status")).toContainText("Saved");
  const stored = await readSettings(request);
  expect(stored.keepRecentCount).not.toBe(9);
  expect(stored.contextWindowOverrides).toEqual({ "my-local-model": 32_000 });
});

test("shows every error at once, in words, and focuses the first", async ({ page }) => {
  await page.goto("/settings");
  await field(page, "threshold").fill("1.5");
  // A rule between two fields, broken while another field is invalid too.
  await field(page, "countThreshold").fill("10");
  await field(page, "countKeepRecent").fill("12");
  await page.getByTestId("settings-save").click();
  const errors = page.getByTestId("settings-error");
  await expect(page.locator("[data-testid=settings-error][data-field=threshold]")).toHaveText("Must be at most 1.");
  await expect(page.locator("[data-testid=settings-error][data-field=countKeepRecent]")).toHaveText("Keep-recent must be below the count threshold.");
  await expect(errors.filter({ hasText: /expected|Too big|<=/ })).toHaveCount(0);
  await expect(field(page, "threshold")).toBeFocused();
});
