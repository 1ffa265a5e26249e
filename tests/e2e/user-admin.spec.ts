// Account and user management in the browser (issue 24, item 5): the admin disables a
// user whose page is open, hands over a reset link, and the sign-in page returns to the
// deep link a signed-out visitor came from. The pages are looked at on a phone too.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { ADMIN, freshContext, signUpWithForm, submitAuthForm } from "./support/accounts";
import { newConversation } from "./support/helpers";

const PASSWORD = "a passphrase for tests";
const NEW_PASSWORD = "violet harbour compass ember";
const someone = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** The admin page's row of `email`, found through the search (the list is paged). */
async function userRow(page: Page, email: string) {
  await page.goto("/admin");
  await page.getByTestId("users-search").fill(email);
  await page.getByTestId("users-search").press("Enter");
  const row = page.locator(`[data-testid="user-row"][data-email="${email}"]`);
  await expect(row).toHaveCount(1);
  return row;
}

test("the admin disables a user: their open page is signed out on its next request, and sign-in says why", async ({ page, browser }) => {
  const email = someone("disabled");
  const context = await freshContext(browser);
  const theirs = await context.newPage();
  await signUpWithForm(theirs, email, PASSWORD);

  const row = await userRow(page, email);
  await row.getByTestId("user-toggle-disabled").click();
  await expect(row).toHaveAttribute("data-disabled", "true");
  await expect(row.getByTestId("user-disabled")).toBeVisible();

  await theirs.goto("/settings");
  await expect(theirs).toHaveURL(/\/sign-in\?next=%2Fsettings$/);
  await submitAuthForm(theirs, email, PASSWORD);
  await expect(theirs.getByTestId("auth-error")).toContainText("This account is disabled");

  await row.getByTestId("user-toggle-disabled").click();
  await expect(row).toHaveAttribute("data-disabled", "false");
  await submitAuthForm(theirs, email, PASSWORD);
  await expect(theirs).toHaveURL(/\/settings$/);
  await context.close();
});

test("a reset link sets a new password once and signs the user out everywhere", async ({ page, browser }) => {
  const email = someone("reset");
  const context = await freshContext(browser);
  const theirs = await context.newPage();
  await signUpWithForm(theirs, email, PASSWORD);

  const row = await userRow(page, email);
  await row.getByTestId("user-reset-link").click();
  const url = await page.getByTestId("reset-link-url").inputValue();
  expect(url).toMatch(/\/reset-password\?token=/);

  const stranger = await freshContext(browser);
  const resetPage = await stranger.newPage();
  await resetPage.goto(url);
  await resetPage.getByTestId("reset-password").fill(NEW_PASSWORD);
  await resetPage.getByTestId("reset-submit").click();
  await expect(resetPage.getByTestId("reset-done")).toBeVisible();

  // Their session elsewhere ended with the reset.
  await theirs.goto("/account");
  await expect(theirs).toHaveURL(/\/sign-in\?next=%2Faccount$/);
  await submitAuthForm(theirs, email, PASSWORD);
  await expect(theirs.getByTestId("auth-error")).toHaveText("Wrong email or password.");
  await submitAuthForm(theirs, email, NEW_PASSWORD);
  await expect(theirs).toHaveURL(/\/account$/);

  // The link worked once.
  await resetPage.goto(url);
  await resetPage.getByTestId("reset-password").fill("yet another good passphrase");
  await resetPage.getByTestId("reset-submit").click();
  await expect(resetPage.getByTestId("reset-error")).toContainText("This link does not work");
  await stranger.close();
  await context.close();
});

test("the sign-in page returns to the deep link, and never to another site", async ({ page, browser }) => {
  const id = await newConversation(page);
  const context = await freshContext(browser);
  const visitor = await context.newPage();
  await visitor.goto(`/c/${id}?from=bookmark`);
  await expect(visitor).toHaveURL(new RegExp(`/sign-in\\?next=${encodeURIComponent(`/c/${id}?from=bookmark`)}$`));
  await submitAuthForm(visitor, ADMIN.email, ADMIN.password);
  await expect(visitor).toHaveURL(new RegExp(`/c/${id}\\?from=bookmark$`));
  await expect(visitor.getByTestId("conversation")).toBeVisible();

  const hostile = await freshContext(browser);
  const target = await hostile.newPage();
  for (const next of ["//evil.example/", "/\\evil.example", "https://evil.example/"]) {
    await target.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await submitAuthForm(target, ADMIN.email, ADMIN.password);
    await expect(target.getByTestId("signed-in-as")).toHaveText(ADMIN.email);
    expect(new URL(target.url()).host).toBe(new URL(visitor.url()).host);
    expect(new URL(target.url()).pathname).toBe("/");
    await hostile.clearCookies();
  }
  await hostile.close();
  await context.close();
});

test("the account and admin pages at desktop and phone sizes", async ({ page }, testInfo) => {
  for (const [name, size] of [
    ["desktop", { width: 1366, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto("/admin");
    await expect(page.getByTestId("users-admin")).toBeVisible();
    await page.getByTestId("users-admin").screenshot({ path: testInfo.outputPath(`users-admin-${name}.png`) });
    const overflow = await page.getByTestId("users-admin").evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow, "the user list fits its box").toBeLessThanOrEqual(1);
    await page.goto("/account");
    await page.getByTestId("delete-account-open").click();
    await expect(page.getByTestId("delete-account-confirmation")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`account-${name}.png`), fullPage: true });
    await expect(page.getByTestId("profile-email")).toHaveValue(ADMIN.email);
  }
});
