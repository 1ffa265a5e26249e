// Accounts in the browser tests. The "accounts" project (first-account.setup.ts) signs
// the first account up through the form and saves its session in ADMIN_STATE; every
// spec runs signed in as that admin. Specs that need someone else sign up or in through
// the forms with the helpers below, in a fresh browser context.
import { expect, request as playwrightRequest, type Browser, type BrowserContext, type Page } from "@playwright/test";

export const ADMIN_STATE = "test-results/.auth/admin.json";
export const ADMIN = { email: "admin@example.com", password: "the admin's passphrase" };
// Distinctive, so the client-bundle test can tell they never reached the browser.
export const E2E_MODEL_KEY = "sk-e2e-server-only-3f9c2a7d";
export const E2E_AUTH_SECRET = "e2e-auth-secret-9b1d4f0c7e2a5b8d3f6a1c4e7b0d2f5a";

export async function submitAuthForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByTestId("auth-email").fill(email);
  await page.getByTestId("auth-password").fill(password);
  await page.getByTestId("auth-submit").click();
}

/** Signs up through the form and waits for the app. */
export async function signUpWithForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-up");
  await submitAuthForm(page, email, password);
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
}

/** Signs in through the form and waits for the app. */
export async function signInWithForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await submitAuthForm(page, email, password);
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
}

/** A browser context with no session (a second person, or the admin on another device). */
export async function freshContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ storageState: { cookies: [], origins: [] } });
}

/**
 * Someone signed up on the app at `baseURL` in a context of their own (for a second app
 * instance: its accounts are its own, and cookies do not tell ports apart). `request`
 * calls the API with their session and the app's Origin, as the page's own requests do.
 */
export async function signedUpOn(browser: Browser, baseURL: string, email = `user-${Date.now()}@example.com`) {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signUpWithForm(page, email, "a passphrase for tests");
  const request = await playwrightRequest.newContext({ baseURL, storageState: await context.storageState(), extraHTTPHeaders: { origin: new URL(baseURL).origin } });
  context.on("close", () => void request.dispose());
  return { context, page, request };
}
