import { expect, test } from "./support/fixtures";
import { newConversation, readSettings, resetModelServer, screenshotPath, scriptTurns, sendMessage, SMALL_WINDOW, saveTestSettings } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, { ...SMALL_WINDOW, threshold: 0.9, maxSummaryTokensPerLevel: 3000 });
});

test("(c) settings: invalid values are refused, a new threshold applies from the next turn", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, Array.from({ length: 5 }, (_, i) => `Turn ${i + 1}: FACT s${i + 1}=x REPLY_WORDS=120`));
  await page.reload();
  await expect(page.getByTestId("compaction-block")).toHaveCount(0);
  const percent = Number(await page.getByTestId("context-meter").getAttribute("data-percent"));
  expect(percent).toBeGreaterThan(35);
  expect(percent).toBeLessThan(80);

  await page.goto("/settings");
  const form = page.getByTestId("settings-form");
  // Every setting of the schema is offered, under its own name.
  for (const name of Object.keys(await readSettings(request))) {
    await expect(form.locator(`[name="${name}"]`)).toHaveCount(1);
  }
  await expect(form.locator('[name="threshold"]')).toHaveValue("0.9");

  // Client-side validation, with the server's schema.
  await form.locator('[name="threshold"]').fill("1.5");
  await form.locator('[name="keepRecentCount"]').fill("-1");
  await page.getByTestId("settings-save").click();
  await expect(page.locator('[data-testid=settings-error][data-field="threshold"]')).toBeVisible();
  await expect(page.locator('[data-testid=settings-error][data-field="keepRecentCount"]')).toBeVisible();
  await expect(form.locator('[name="threshold"]')).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("settings-status")).toContainText("Not saved");
  // Rules between fields too.
  await form.locator('[name="keepRecentCount"]').fill("4");
  await form.locator('[name="threshold"]').fill("0.35");
  await form.locator('[name="preemptiveThreshold"]').fill("0.7");
  await page.getByTestId("settings-save").click();
  await expect(page.locator('[data-testid=settings-error][data-field="preemptiveThreshold"]')).toContainText("below the auto threshold");
  await expect(page.locator('[data-testid=settings-error][data-field="threshold"]')).toHaveCount(0);
  await page.locator('[data-setting="preemptiveThreshold"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath("settings-errors") });
  expect((await readSettings(request)).threshold).toBe(0.9);

  // An error only the server knows (the endpoint's model list) is shown the same way.
  await form.locator('[name="preemptiveThreshold"]').fill("0");
  await form.locator('[name="summaryModel"]').fill("no-such-model");
  await page.getByTestId("settings-save").click();
  await expect(page.locator('[data-testid=settings-error][data-field="summaryModel"]')).toContainText("no-such-model");
  expect((await readSettings(request)).threshold).toBe(0.9);

  // A valid change is saved.
  await form.locator('[name="summaryModel"]').fill("");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-status")).toContainText("Saved");
  await expect(page.getByTestId("settings-error")).toHaveCount(0);
  expect((await readSettings(request)).threshold).toBe(0.35);
  await form.evaluate((element) => element.parentElement?.scrollTo(0, 0));
  await page.screenshot({ path: screenshotPath("settings") });

  // The next turn honours it: the context is well above 35%, so the turn compresses first.
  await page.goto(`/c/${id}`);
  await sendMessage(page, "Turn 6: FACT s6=x");
  const block = page.getByTestId("compaction-block").first();
  await expect(block).toBeVisible();
  await expect(block).toHaveAttribute("data-trigger", "auto");
  await expect.poll(async () => Number(await page.getByTestId("context-meter").getAttribute("data-percent"))).toBeLessThan(percent);
});

test("(c) reset restores the defaults", async ({ page, request }) => {
  const overrides = (await readSettings(request)).contextWindowOverrides;
  await page.goto("/settings");
  // It asks first (issue 14), and keeps the context-window overrides (they describe models, not preferences).
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("settings-reset").click();
  await expect(page.getByTestId("settings-status")).toContainText("Saved");
  const saved = await readSettings(request);
  expect(saved.threshold).toBe(0.8);
  expect(saved.contextWindowOverrides).toEqual(overrides);
  await expect(page.locator('[name="threshold"]')).toHaveValue("0.8");
});
