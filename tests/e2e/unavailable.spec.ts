// The database is unavailable: a second instance of the same build, pointed at a
// database that does not exist, shows one app-level error state with the cause in
// words and a retry on every page — never an empty list that reads as data loss.
import { spawn, type ChildProcess } from "node:child_process";
import { E2E_AUTH_SECRET } from "./support/accounts";
import { expect, test } from "./support/fixtures";

const PORT = Number(process.env.E2E_BROKEN_APP_PORT ?? Number(process.env.E2E_APP_PORT ?? 3100) + 2);
const BROKEN_APP = `http://127.0.0.1:${PORT}`;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // Its own process group: npx runs Next as a child that a SIGTERM to npx alone leaves
  // running (it outlived the suite), so afterAll stops the whole group.
  server = spawn("npx", ["next", "start", "-p", String(PORT)], {
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/strata_e2e_no_such_database",
      BETTER_AUTH_SECRET: E2E_AUTH_SECRET,
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      OPENAI_API_KEY: "unused",
      LOG_LEVEL: "silent",
    },
    stdio: "ignore",
  });
  for (let tries = 0; ; tries++) {
    const up = await fetch(`${BROKEN_APP}/api/auth/ok`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (tries > 120) throw new Error("the second instance did not start");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server?.pid === undefined) return;
  process.kill(-server.pid, "SIGTERM");
  // Nothing may still answer on the port once the group is gone.
  await expect
    .poll(() => fetch(`${BROKEN_APP}/api/auth/ok`).then(() => "answering", () => "stopped"), { timeout: 30_000 })
    .toBe("stopped");
});

for (const path of ["/", "/settings", "/c/0192f0a0-0000-7000-8000-000000000000", "/sign-in"]) {
  test(`${path} says the database is unavailable, why, and offers a retry`, async ({ page }) => {
    await page.goto(`${BROKEN_APP}${path}`);
    await expect(page.getByTestId("app-error")).toBeVisible();
    await expect(page.getByRole("heading", { name: "The database is unavailable" })).toBeVisible();
    await expect(page.getByTestId("app-error-cause")).toHaveText("The database Strata is configured to use does not exist.");
    await expect(page.getByText("Your conversations are not lost")).toBeVisible();
    await expect(page.getByText(/No conversations yet|This page couldn.t load|ECONNREFUSED|strata_e2e_no_such_database/)).toHaveCount(0);
    await expect(page.getByTestId("new-conversation")).toHaveCount(0);
    // Retrying while it is still down shows the same state, not a crash.
    await page.getByTestId("app-error-retry").click();
    await expect(page.getByTestId("app-error-retry")).toBeEnabled();
    await expect(page.getByTestId("app-error-cause")).toHaveText("The database Strata is configured to use does not exist.");
  });
}
