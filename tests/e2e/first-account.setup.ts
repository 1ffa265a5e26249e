// The first thing anyone does with a fresh Strata: open it, land on the sign-up form,
// create the first account, which becomes the admin. Its session is saved for every
// other spec (playwright.config.ts, project "app").
import { test, expect } from "./support/fixtures";
import { ADMIN, ADMIN_STATE, submitAuthForm } from "./support/accounts";

test("the first account is created with the sign-up form and becomes the admin", async ({ page }) => {
  await page.goto("/");
  // Nobody to sign in yet: the one form a newcomer sees is the sign-up.
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByTestId("first-account-note")).toContainText("becomes the admin");
  await submitAuthForm(page, ADMIN.email, ADMIN.password);
  await expect(page.getByTestId("signed-in-as")).toHaveText(ADMIN.email);
  await expect(page.getByTestId("sidebar-admin")).toBeVisible();
  await page.getByTestId("sidebar-account").click();
  await expect(page.getByTestId("account-role")).toHaveText("Admin of this Strata");
  await page.context().storageState({ path: ADMIN_STATE });
});
