// Accounts in the browser: signing out and in, a second person who cannot reach the
// first one's conversation and has their own settings, personal API tokens, closed
// sign-ups, the security headers, and where a conversation's settings come from.
import { randomUUID } from "node:crypto";
import { request as playwrightRequest } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { ADMIN, freshContext, signInWithForm, signUpWithForm, submitAuthForm } from "./support/accounts";
import { newConversation, readSettings, resetModelServer, saveTestSettings, sendMessage } from "./support/helpers";

const someone = () => `person-${randomUUID().slice(0, 8)}@example.com`;
// API clients of their own: no cookie from the admin's saved session.
const NO_SESSION = { storageState: { cookies: [], origins: [] } };

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

test("signing out ends the session on the server; a wrong password is refused; signing in works again", async ({ browser, baseURL }) => {
  const context = await freshContext(browser);
  const page = await context.newPage();
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await submitAuthForm(page, ADMIN.email, "not the passphrase");
  await expect(page.getByTestId("auth-error")).toHaveText("Wrong email or password.");

  await signInWithForm(page, ADMIN.email, ADMIN.password);
  const session = (await context.cookies()).find((cookie) => cookie.name.endsWith("session_token"))!;
  expect(session.httpOnly).toBe(true);
  expect(session.sameSite).toBe("Lax");

  await page.goto("/account");
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fsettings$/);
  // The old cookie, replayed, no longer opens anything: the session is gone on the server.
  const replay = await playwrightRequest.newContext({ ...NO_SESSION, baseURL: baseURL!, extraHTTPHeaders: { cookie: `${session.name}=${session.value}` } });
  expect((await replay.get("/api/conversations")).status()).toBe(401);
  await replay.dispose();
  await context.close();
});

test("a second user cannot see or open the first user's conversation, and has their own settings", async ({ page, request, browser }) => {
  await saveTestSettings(request, { threshold: 0.9 });
  await page.goto("/");
  const id = await newConversation(page);
  await sendMessage(page, "The admin's private plan: FACT plan=orchard");

  const context = await freshContext(browser);
  const other = await context.newPage();
  await signUpWithForm(other, someone(), "another passphrase");
  await expect(other.getByTestId("conversation-item")).toHaveCount(0);
  await expect(other.getByTestId("sidebar-admin")).toHaveCount(0);

  // The URL typed by hand: the same 404 page as for an id that does not exist.
  const response = await other.goto(`/c/${id}`);
  expect(response?.status()).toBe(404);
  await expect(other.getByTestId("not-found")).toBeVisible();
  await expect(other.locator("body")).not.toContainText("orchard");
  const unknown = await other.goto(`/c/${randomUUID()}`);
  expect(unknown?.status()).toBe(404);
  expect((await other.request.get(`/api/conversations/${id}`)).status()).toBe(404);
  expect((await other.goto("/admin"))?.status()).toBe(404);

  // Their settings are their own: the admin's 0.9 is not theirs.
  await other.goto("/settings");
  await expect(other.locator('[name="threshold"]')).toHaveValue("0.8");
  expect((await readSettings(other.request)).threshold).toBe(0.8);
  expect((await readSettings(request)).threshold).toBe(0.9);
  await context.close();

  await page.goto(`/c/${id}`);
  await expect(page.getByTestId("message").first()).toContainText("orchard");
});

test("a personal API token works for scripts until it is revoked", async ({ page, baseURL }) => {
  await page.goto("/account");
  // A token without a name is refused in the form's words (the API's message names the field: "name: …").
  await page.getByTestId("token-create").click();
  await expect(page.getByTestId("token-error")).toHaveText("Give the token a name.");
  await page.getByTestId("token-name").fill("curl example");
  await page.getByTestId("token-create").click();
  const token = (await page.getByTestId("token-value").textContent())!.trim();
  expect(token).toMatch(/^strata_[A-Za-z]{48}$/);

  // As in the README: no cookie, only the token.
  const script = await playwrightRequest.newContext({ ...NO_SESSION, baseURL: baseURL!, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const created = await script.post("/api/conversations", { data: {} });
  expect(created.status()).toBe(201);
  const { conversation } = (await created.json()) as { conversation: { id: string } };
  const reply = await script.post(`/api/conversations/${conversation.id}/messages`, { data: { content: "Hello" } });
  expect(reply.status()).toBe(200);

  await page.reload();
  const row = page.getByTestId("token-row").filter({ hasText: "curl example" });
  // Told apart from other tokens by their first random characters.
  await expect(row.getByTestId("token-start")).toHaveText(`${token.slice(0, "strata_".length + 6)}…`);
  await expect(row).toContainText("no expiry");
  await expect(page.locator("body")).not.toContainText(token);
  await row.getByTestId("token-revoke").click();
  await row.getByTestId("token-revoke-yes").click();
  await expect(row).toHaveCount(0);
  const refused = await script.get("/api/conversations");
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/revoked/);
  await script.dispose();
});

test("sign-up and a password change refuse a guessable password with the server's reason; the change ends the other sessions", async ({ browser }) => {
  const context = await freshContext(browser);
  const page = await context.newPage();
  const email = someone();
  await page.goto("/sign-up");
  await submitAuthForm(page, email, "password");
  await expect(page.getByTestId("auth-error")).toHaveText("The password is too short: use at least 12 characters.");
  await signUpWithForm(page, email, "another passphrase");
  const laptop = await freshContext(browser);
  const laptopPage = await laptop.newPage();
  await signInWithForm(laptopPage, email, "another passphrase");

  await page.goto("/account");
  await expect(page.getByTestId("session-row")).toHaveCount(2);
  await expect(page.getByTestId("session-row").filter({ hasText: "this session" })).toHaveCount(1);
  await page.getByTestId("current-password").fill("another passphrase");
  await page.getByTestId("new-password").fill("password1234");
  await page.getByTestId("password-submit").click();
  await expect(page.getByTestId("password-error")).toContainText("too easy to guess");
  await page.getByTestId("new-password").fill("a brand new passphrase");
  await page.getByTestId("password-submit").click();
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  expect((await laptopPage.request.get("/api/conversations")).status()).toBe(401);
  await laptop.close();
  await context.close();
});

test("the admin can close sign-ups; a visitor then finds the form closed", async ({ page, browser }) => {
  await page.goto("/admin");
  const toggle = page.getByTestId("signups-open");
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(toggle).not.toBeChecked();
  await expect(page.getByTestId("signups-saved")).toHaveText("Saved.");
  const context = await freshContext(browser);
  try {
    const visitor = await context.newPage();
    await visitor.goto("/sign-up");
    await expect(visitor.getByTestId("signups-closed")).toBeVisible();
    await expect(visitor.getByTestId("sign-up-form")).toHaveCount(0);
    // The sign-in page does not send the visitor to that closed door.
    await visitor.goto("/sign-in");
    await expect(visitor.getByTestId("sign-in-form")).toContainText("No account yet? Ask the admin for one.");
    await expect(visitor.getByRole("link", { name: "Create an account" })).toHaveCount(0);
    const direct = await visitor.request.post("/api/auth/sign-up/email", {
      data: { email: someone(), password: "a long passphrase", name: "x" },
      headers: { origin: new URL(visitor.url()).origin },
    });
    expect(direct.status()).toBe(403);
  } finally {
    await toggle.check();
    await expect(toggle).toBeChecked();
    await expect(page.getByTestId("signups-saved")).toHaveText("Saved.");
    await context.close();
  }
});

test("security headers on pages and on the API", async ({ page, request, baseURL }) => {
  const response = await page.goto("/settings");
  const headers = response!.headers();
  const csp = headers["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("unsafe-eval");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
  // A fresh nonce per response.
  const again = (await page.goto("/settings"))!.headers()["content-security-policy"];
  expect(again).not.toBe(csp);

  const api = await request.get("/api/settings");
  expect(api.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  const anonymous = await playwrightRequest.newContext({ ...NO_SESSION, baseURL: baseURL! });
  expect((await anonymous.get("/api/settings")).status()).toBe(401);
  await anonymous.dispose();
});

test("a conversation shows which settings apply and where each comes from; its own override wins", async ({ page, request }) => {
  await saveTestSettings(request, { keepRecentCount: 6 });
  await page.goto("/");
  await newConversation(page);
  await page.getByTestId("conversation-settings").click();
  const dialog = page.getByTestId("conversation-settings-dialog");
  await expect(dialog.getByTestId("override-keepRecentCount")).toHaveAttribute("data-source", "user");
  await expect(dialog.getByTestId("override-threshold")).toHaveAttribute("data-source", "default");
  await expect(dialog.getByTestId("override-keepRecentCount")).toContainText("your settings");

  await dialog.getByTestId("override-threshold-on").check();
  await dialog.getByTestId("override-threshold-value").fill("0.75");
  await dialog.getByTestId("conversation-settings-save").click();
  await expect(dialog.getByTestId("conversation-settings-status")).toContainText("Saved");
  await expect(dialog.getByTestId("override-threshold")).toHaveAttribute("data-source", "conversation");

  // Refused values are explained, and nothing changes.
  await dialog.getByTestId("override-threshold-value").fill("0.5");
  await dialog.getByTestId("conversation-settings-save").click();
  await expect(dialog.getByTestId("conversation-settings-status")).toContainText("Not saved");

  await page.reload();
  await page.getByTestId("conversation-settings").click();
  await expect(page.getByTestId("override-threshold")).toHaveAttribute("data-source", "conversation");
  await expect(page.getByTestId("override-threshold-value")).toHaveValue("0.75");
});
