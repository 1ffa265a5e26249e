import { defineConfig } from "@playwright/test";
import { IDLE_KEEP_ALIVE_MS } from "./lib/llm/demo-server/http";
import { ADMIN_STATE, E2E_AUTH_SECRET, E2E_MODEL_KEY } from "./tests/e2e/support/accounts";

// End-to-end tests: the real app (next build + next start) against Strata's
// OpenAI-compatible demo server behind the tests' fault-injecting proxy
// (tests/support/test-model), on a dedicated PostgreSQL database that is reset
// before the app starts (tests/e2e/support/prepare-db.ts) and again in globalSetup.
// The "accounts" project signs the first account up through the form (it becomes the
// admin) and saves its session; every other spec runs signed in with it.
// Overridable so that two checkouts can run their browser tests side by side.
const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
const MODEL_PORT = Number(process.env.E2E_MODEL_PORT ?? 4010);
const databaseUrl = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/strata_e2e";
// A second instance of the same build talks to the outside model (a server that shares
// nothing with the app), with its own database.
const OUTSIDE_MODEL_PORT = Number(process.env.E2E_OUTSIDE_MODEL_PORT ?? MODEL_PORT + 1);
const OUTSIDE_APP_PORT = Number(process.env.E2E_OUTSIDE_APP_PORT ?? APP_PORT + 1);
const outsideDatabaseUrl = `${databaseUrl}_outside`;
// scripts/start.mjs builds only when .next does not match the source, so the second
// Playwright run (test:faults, after npm test) and npm start in the fault suite reuse
// the build the first one made.
const start = process.env.E2E_SKIP_BUILD === "1" ? "npx next start" : "node scripts/start.mjs";
// The specs' request context reuses idle sockets without reading the Keep-Alive hint;
// at Node's 5 s default a call after a pause can meet the socket closing (ECONNRESET).
// The app instances keep them as long as the model servers do.
const KEEP_ALIVE = `--keepAliveTimeout ${IDLE_KEEP_ALIVE_MS}`;
// The slowest specs run in `npm run test:faults` (also in CI), keeping `npm test` well
// under its 15 minutes on a 2-core machine.
const EXTENDED = [
  "**/chat-ux.spec.ts",
  "**/accounts.spec.ts",
  "**/chat-extras.spec.ts",
  "**/model-picker.spec.ts",
  "**/user-admin.spec.ts",
  "**/share.spec.ts",
  "**/tool-approval.spec.ts",
  // Moved when npm test reached 18.5 min on the 2-core CI machine (unit 2.1, integration 5.4, embedded 1.5,
  // Playwright 9.5 with its build): the slowest of the rest, about 4 min together.
  "**/scroll-earlier.spec.ts",
  "**/polish.spec.ts",
  "**/images.spec.ts",
  "**/tool-cards.spec.ts",
  "**/deep-tree.spec.ts",
  "**/requests-per-turn.spec.ts",
  "**/undo.spec.ts",
  "**/versions.spec.ts",
  "**/history.spec.ts",
  // Moved when npm test reached 19 min on a slower 2-core CI machine (with the engine matrix, most
  // of the embedded run and the slowest integration files, which moved to test:faults as well).
  "**/polish2.spec.ts",
  "**/organise.spec.ts",
  "**/settings-form.spec.ts",
  "**/export-import.spec.ts",
  "**/message-actions.spec.ts",
  "**/client-bundle.spec.ts",
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    viewport: { width: 1280, height: 860 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "accounts", testMatch: "first-account.setup.ts" },
    { name: "app", testMatch: "**/*.spec.ts", testIgnore: EXTENDED, dependencies: ["accounts"], use: { storageState: ADMIN_STATE } },
    { name: "extended", testMatch: EXTENDED, dependencies: ["accounts"], use: { storageState: ADMIN_STATE } },
  ],
  webServer: [
    {
      command: `npx tsx tests/support/test-model/cli.ts --port ${MODEL_PORT}`,
      url: `http://127.0.0.1:${MODEL_PORT}/__admin/health`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: `npx tsx tests/e2e/support/prepare-db.ts && ${start} -p ${APP_PORT} ${KEEP_ALIVE}`,
      url: `http://127.0.0.1:${APP_PORT}/api/auth/ok`,
      reuseExistingServer: !process.env.CI,
      timeout: 600_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        OPENAI_BASE_URL: `http://127.0.0.1:${MODEL_PORT}/v1`,
        OPENAI_API_KEY: E2E_MODEL_KEY,
        // Set, rather than generated into the database (which globalSetup empties while the app runs).
        BETTER_AUTH_SECRET: E2E_AUTH_SECRET,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: "warn",
        // The specs script many turns a minute; the limit itself is tested in tests/integration.
        STRATA_MESSAGE_RATE_LIMIT: "0",
        STRATA_SIGNIN_RATE_LIMIT: "30",
      },
    },
    {
      command: `npx tsx tests/support/outside-model/cli.ts --port ${OUTSIDE_MODEL_PORT} --summary terse`,
      url: `http://127.0.0.1:${OUTSIDE_MODEL_PORT}/admin/health`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      // Waits for the first instance, which builds.
      command: `npx tsx tests/e2e/support/prepare-db.ts && until curl -s -o /dev/null http://127.0.0.1:${APP_PORT}/; do sleep 1; done && npx next start -p ${OUTSIDE_APP_PORT} ${KEEP_ALIVE}`,
      url: `http://127.0.0.1:${OUTSIDE_APP_PORT}/api/auth/ok`,
      reuseExistingServer: !process.env.CI,
      timeout: 600_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        OPENAI_BASE_URL: `http://127.0.0.1:${OUTSIDE_MODEL_PORT}/v1`,
        OPENAI_API_KEY: "test-key",
        STRATA_DEFAULT_MODEL: "outside-small",
        BETTER_AUTH_SECRET: E2E_AUTH_SECRET,
        DATABASE_URL: outsideDatabaseUrl,
        E2E_DATABASE_URL: outsideDatabaseUrl,
        LOG_LEVEL: "warn",
        STRATA_MESSAGE_RATE_LIMIT: "0",
      },
    },
  ],
});
