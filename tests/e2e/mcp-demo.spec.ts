// The demo's tool servers from a newcomer's seat: filesystem (on demo/files) and memory,
// configured as the demo configures them for its first account, on by default. Asked to
// read a file, the demo model calls the filesystem server; the timeline shows the call,
// its result and the reply. The admin page shows the server up with its tools; the chat
// header's Tools menu switches it off for one conversation.
import { addMissingMcpServers } from "../../lib/db/mcp-servers";
import { demoServers } from "../../lib/mcp/demo-servers";
import { closeDb, getDb } from "../../lib/db/client";
import { E2E_DATABASE_URL } from "./support/database";
import { test, expect } from "./support/fixtures";
import { newConversation, sendMessage } from "./support/helpers";

// What the first account's creation does in demo mode (this suite's app talks to the test model instead).
test.beforeAll(async () => {
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = E2E_DATABASE_URL;
  try {
    await addMissingMcpServers(await getDb(), demoServers());
  } finally {
    await closeDb();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
});

// The database outlives this file: servers left on by default would add their tools to
// every later spec's turns (and change what their context meters and compactions see).
test.afterAll(async () => {
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = E2E_DATABASE_URL;
  try {
    await (await getDb()).mcpServer.deleteMany({});
  } finally {
    await closeDb();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
});

test("a newcomer asks to read a file and sees the call, its result and the reply", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  await sendMessage(page, "Please read notes.md");
  // The call: one card, the tool and its server, done.
  const card = page.getByTestId("tool-card");
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute("data-status", "done");
  await expect(card.getByTestId("tool-name")).toContainText("read_text_file");
  await expect(card.getByTestId("tool-server")).toHaveText("filesystem");
  // Its result, opened.
  await card.getByTestId("tool-card-toggle").click();
  await expect(card.getByTestId("tool-card-body")).toContainText("Meeting with Ada moved to Thursday");
  // The demo model answers from what the tool returned.
  await expect(page.locator(`[data-testid="message"][data-role="assistant"]`).last()).toContainText("Meeting with Ada moved to Thursday");
});

test("the admin sees the server up with its tools; a conversation switches it off", async ({ page }) => {
  await page.goto("/admin");
  await page.getByTestId("tool-servers-check").click();
  const server = page.getByTestId("tool-server-filesystem");
  await expect(server.getByTestId("tool-server-status")).toContainText(/up, \d+ tools/);
  await server.getByText("Tools", { exact: true }).click();
  await expect(server).toContainText("read_text_file");

  // A server added with the form that cannot start: down, with the reason; its secret never shown.
  await page.getByTestId("tool-server-add").click();
  const form = page.getByTestId("tool-server-form").last();
  await form.getByTestId("tool-server-name").fill("broken");
  await form.getByTestId("tool-server-command").fill("/nonexistent/mcp-server");
  await form.getByTestId("tool-server-secrets").fill("API_TOKEN=e2e-secret-value");
  await form.getByTestId("tool-server-save").click();
  const broken = page.getByTestId("tool-server-broken");
  await expect(broken).toContainText("API_TOKEN: set");
  await page.getByTestId("tool-servers-check").click();
  await expect(broken.getByTestId("tool-server-status")).toContainText(/down: could not connect.*ENOENT/);
  await page.reload();
  await expect(page.getByTestId("tool-server-broken")).toBeVisible();
  expect(await page.content()).not.toContain("e2e-secret-value");

  await newConversation(page);
  await page.getByTestId("tool-servers-toggle").click();
  const toggle = page.getByTestId("tool-server-switch-filesystem");
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(toggle).not.toBeChecked();
  await page.keyboard.press("Escape");
  await sendMessage(page, "Please read notes.md");
  await expect(page.getByTestId("tool-card")).toHaveCount(0);
});
