// Asking before a tool call, in the browser: a real tool server (server-filesystem on a
// scratch folder: its write_file is not read-only, so the turn asks) and a scripted model
// (tests/support/scripted-tool-model.ts) that the test model forwards to for this file.
// Approve runs the call and the reply follows; Deny stores a denied result the model reads;
// "Always allow here" lets the tool run without asking for the rest of the conversation.
// Also: an image a tool server returns (server-everything's tiny image) shows in its card.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { closeDb, getDb } from "../../lib/db/client";
import { addMissingMcpServers } from "../../lib/db/mcp-servers";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-tool-model";
import { E2E_DATABASE_URL } from "./support/database";
import { test, expect } from "./support/fixtures";
import { MODEL_SERVER, newConversation } from "./support/helpers";

test.describe.configure({ mode: "serial" });

const SERVER_NAMES = ["scratch", "everything"];
let model: ScriptedModel;
let folder: string;

async function withE2eDb<T>(work: (db: Awaited<ReturnType<typeof getDb>>) => Promise<T>): Promise<T> {
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = E2E_DATABASE_URL;
  try {
    return await work(await getDb());
  } finally {
    await closeDb();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}

test.beforeAll(async ({ request }) => {
  folder = mkdtempSync(path.join(os.tmpdir(), "strata-approval-"));
  model = await startScriptedModel();
  expect((await request.post(`${MODEL_SERVER}/__admin/upstream`, { data: { url: model.url } })).ok()).toBeTruthy();
  const bin = (pkg: string) => path.resolve(`node_modules/@modelcontextprotocol/${pkg}/dist/index.js`);
  await withE2eDb((db) =>
    addMissingMcpServers(db, [
      { name: "scratch", transport: { kind: "stdio", command: process.execPath, args: [bin("server-filesystem"), folder], env: {} }, enabled: true, onByDefault: true },
      { name: "everything", transport: { kind: "stdio", command: process.execPath, args: [bin("server-everything"), "stdio"], env: {} }, enabled: true, onByDefault: true },
    ]),
  );
});

// The database and the test model outlive this file: later specs must see neither these servers nor this model.
test.afterAll(async ({ request }) => {
  await request.delete(`${MODEL_SERVER}/__admin/upstream`);
  await withE2eDb((db) => db.mcpServer.deleteMany({ where: { name: { in: SERVER_NAMES } } }));
  await model.close();
  rmSync(folder, { recursive: true, force: true });
});

test.beforeEach(() => model.reset());

/** Sends without waiting for the turn's end: it pauses at the approval prompt. */
async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId("composer").fill(text);
  await page.getByTestId("composer").press("Enter");
}

const writeCall = (file: string, id: string) => ({ calls: [{ name: "scratch__write_file", args: { path: path.join(folder, file), content: `contents of ${file}` }, id }] });
const lastReply = (page: Page) => page.locator(`[data-testid="message"][data-role="assistant"]`).last();

test("Approve runs the call: the card shows it done with its result, and the reply follows", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  model.steps = [writeCall("approved.txt", "w1"), { text: "I wrote approved.txt for you." }];
  await send(page, "Please write approved.txt");

  const prompt = page.getByTestId("tool-approval");
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText("scratch__write_file");
  await expect(prompt).toContainText("scratch");
  await expect(prompt.getByLabel("Arguments")).toContainText("approved.txt");
  const card = page.getByTestId("tool-card");
  await expect(card).toHaveAttribute("data-status", "awaiting_approval");
  if (process.env.E2E_LOOK) {
    for (const [width, height] of [[1366, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: path.join(os.tmpdir(), `tool-approval-${width}.png`) });
    }
  }
  // Nothing runs while the prompt waits.
  expect(existsSync(path.join(folder, "approved.txt"))).toBe(false);

  await prompt.getByTestId("approve-tool").click();
  await expect(page.getByTestId("tool-approval")).toHaveCount(0);
  await expect(card).toHaveAttribute("data-status", "done");
  await expect(lastReply(page)).toContainText("I wrote approved.txt for you.");
  expect(readFileSync(path.join(folder, "approved.txt"), "utf8")).toBe("contents of approved.txt");
  await card.getByTestId("tool-card-toggle").click();
  await expect(card.getByTestId("tool-card-body")).toContainText(/Successfully wrote to .*approved\.txt/);
  // The model read the tool's own answer.
  expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: "tool", content: expect.stringMatching(/Successfully wrote/) });
});

test("Deny: the card says denied, the model reads why, and the reply says so", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  model.steps = [writeCall("denied.txt", "w2"), { text: "You denied the write, so denied.txt was not written." }];
  await send(page, "Please write denied.txt");
  const prompt = page.getByTestId("tool-approval");
  await expect(prompt).toBeVisible();
  await prompt.getByTestId("deny-tool").click();

  const card = page.getByTestId("tool-card");
  await expect(card).toHaveAttribute("data-status", "denied");
  await expect(card.getByTestId("tool-status")).toHaveText(/denied/i);
  await expect(lastReply(page)).toContainText("You denied the write");
  expect(existsSync(path.join(folder, "denied.txt"))).toBe(false);
  const result = model.requests[1]!.messages.at(-1)!;
  expect(result.role).toBe("tool");
  expect(result.content).toMatch(/declined/i);
});

test("Always allow here: the next call of the tool runs without asking", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  model.steps = [writeCall("first.txt", "w3"), { text: "Wrote first.txt." }];
  await send(page, "Please write first.txt");
  await page.getByTestId("tool-approval").getByTestId("always-allow-tool").click();
  await expect(lastReply(page)).toContainText("Wrote first.txt.");

  model.steps = [writeCall("second.txt", "w4"), { text: "Wrote second.txt without asking." }];
  await send(page, "And second.txt");
  await expect(lastReply(page)).toContainText("Wrote second.txt without asking.");
  await expect(page.getByTestId("tool-card")).toHaveCount(2);
  await expect(page.getByTestId("tool-card").last()).toHaveAttribute("data-status", "done");
  expect(existsSync(path.join(folder, "second.txt"))).toBe(true);
  // The prompt never came back: no turn event asked (the model got its result in the same turn).
  await expect(page.getByTestId("tool-approval")).toHaveCount(0);
  expect(model.requests).toHaveLength(4);
});

test("an image a tool server returns shows in its card; the model read a note instead", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  model.steps = [{ calls: [{ name: "everything__get-tiny-image", args: {}, id: "img" }] }, { text: "That is the MCP logo." }];
  await send(page, "Show me the tiny image");
  await expect(lastReply(page)).toContainText("That is the MCP logo.");
  const card = page.getByTestId("tool-card");
  await expect(card).toHaveAttribute("data-status", "done");
  await card.getByTestId("tool-card-toggle").click();
  const image = card.getByTestId("tool-result-image");
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute("src", /^data:image\/png;base64,iVBOR/);
  expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  expect(model.requests[1]!.messages.at(-1)!.content).toMatch(/\[image: image\/png, [\d.]+ KB\]/);
  if (process.env.E2E_LOOK) {
    for (const [width, height] of [[1366, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(os.tmpdir(), `tool-image-${width}.png`) });
    }
  }
});
