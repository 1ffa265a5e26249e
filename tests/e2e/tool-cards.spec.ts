// A tool call and its result as one card: the demo model answers "what time is it?" by
// calling current_time, the result streams in after the call, and the card shows the
// tool, where it ran, its status, duration and result (closed, then opened by keyboard).
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { newConversation, resetModelServer, saveTestSettings, sendMessage, seriousAxeViolations } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

/** Asks the time; returns the reply that called the tool. */
async function askTheTime(page: Page) {
  await newConversation(page);
  await sendMessage(page, "what time is it?");
  return page.locator("[data-testid=message][data-role=assistant]").filter({ has: page.getByTestId("tool-card") });
}

async function expectOneDoneCard(page: Page) {
  const cards = page.getByTestId("tool-card");
  await expect(cards).toHaveCount(1);
  const card = cards.first();
  await expect(card).toHaveAttribute("data-tool", "current_time");
  await expect(card).toHaveAttribute("data-status", "done");
  await expect(card.getByTestId("tool-name")).toHaveText("current_time");
  await expect(card.getByTestId("tool-server")).toHaveText("built-in");
  await expect(card.getByTestId("tool-status")).toHaveText("done");
  await expect(card.getByTestId("tool-duration")).toHaveText(/^\d+(\.\d)? (ms|s)$/);
  await expect(card.getByTestId("tool-result-tokens")).toHaveText(/^\d+ tok$/);
  return card;
}

test("a call and its result are one card: tool, server, status, duration, result closed then opened", async ({ page }) => {
  const reply = await askTheTime(page);
  await expect(reply).toHaveCount(1);
  const card = await expectOneDoneCard(page);

  // The result is drawn in the reply's card, not as a message of its own after it.
  const results = page.locator("[data-testid=message][data-role=tool]");
  await expect(results).toHaveCount(1);
  await expect(reply.locator("[data-testid=message][data-role=tool]")).toHaveCount(1);
  // And the model's answer to it follows.
  await expect(page.locator("[data-testid=message][data-role=assistant]").last()).toContainText("The tool returned:");

  // Closed: a one-line preview, no body.
  const toggle = card.getByTestId("tool-card-toggle");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(card.getByTestId("tool-card-body")).toHaveCount(0);
  await expect(card.getByTestId("tool-result-preview")).toContainText('"iso"');

  // Opened from the keyboard: arguments (none) and the whole result.
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const body = card.getByTestId("tool-card-body");
  await expect(body).toContainText("Arguments");
  await expect(body).toContainText("none");
  const text = body.getByTestId("tool-result-text");
  await expect(text).toContainText('"iso"');
  await expect(text).toContainText('"timeZone"');
  expect(JSON.parse((await text.textContent()) ?? "")).toHaveProperty("iso");
  await expect(card.getByTestId("tool-result-preview")).toHaveCount(0);

  // Closed again with Space.
  await page.keyboard.press(" ");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(card.getByTestId("tool-card-body")).toHaveCount(0);

  // Loaded from the server after a reload: still one card, paired the same way.
  await page.reload();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  await expectOneDoneCard(page);
  await expect(page.locator("[data-testid=message][data-role=tool]")).toHaveCount(1);
});

test("a link to the tool result opens the card that holds it", async ({ page }) => {
  await askTheTime(page);
  const result = page.locator("[data-testid=message][data-role=tool]");
  const seq = await result.getAttribute("data-seq");
  // Scroll away from it, then follow the link as a reader who was sent it would.
  await page.goto(`${page.url().split("#")[0]}#m-${seq}`);
  await page.reload();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  await expect(page.locator(`[data-testid=message][data-role=tool][data-seq="${seq}"]`)).toHaveAttribute("data-search-target", "true");
});

// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

type ExportedMessage = Record<string, unknown> & { seq: number; role: string };

test("calls of a tool server: every outcome, MCP content drawn as such, a long result shown in part until asked", async ({ page, request }) => {
  // A real turn, exported, then rewritten into a reply that called four tools of a server
  // (results stored out of order) and imported: the app draws what the file holds.
  const id = await newConversation(page);
  await sendMessage(page, "what time is it?");
  const exported = (await (await request.get(`/api/conversations/${id}/export?format=json`)).json()) as { messages: ExportedMessage[] } & Record<string, unknown>;
  const [asked, caller, result, answer] = exported.messages;
  expect([asked?.role, caller?.role, result?.role, answer?.role]).toEqual(["user", "assistant", "tool", "assistant"]);
  const calls = [
    { id: "c_list", name: "list_directory", arguments: JSON.stringify({ path: "/sample", depth: 1 }) },
    { id: "c_write", name: "write_file", arguments: JSON.stringify({ path: "/sample/x.md", content: "x" }) },
    { id: "c_read", name: "read_file", arguments: JSON.stringify({ path: "/sample/long.txt" }) },
    { id: "c_gone", name: "read_file", arguments: JSON.stringify({ path: "/missing" }) },
  ];
  const longText = Array.from({ length: 40 }, (_, index) => `line ${index + 1}: FACT k${index}=v${index}`).join("\n");
  const content = [
    { type: "text", text: "Listed the sample folder" },
    { type: "image", data: PNG, mimeType: "image/png" },
    { type: "image", data: "PHN2Zz48L3N2Zz4=", mimeType: "image/svg+xml" },
    { type: "resource_link", uri: "https://example.org/readme", name: "readme", description: "The project's readme" },
    { type: "resource_link", uri: "javascript:alert(1)", name: "trap" },
    { type: "resource", resource: { uri: "file:///sample/notes.md", mimeType: "text/markdown", text: "# Notes\nremember the otter" } },
  ];
  const tool = (seq: number, callId: string, name: string, body: string, outcome: string, durationMs: number) => ({
    ...result!,
    seq,
    content: body,
    toolCallId: callId,
    toolName: name,
    toolOutcome: outcome,
    toolDurationMs: durationMs,
    toolServer: "files",
    tokenCount: 40 + seq,
  });
  exported.messages = [
    asked!,
    { ...caller!, toolCalls: calls },
    tool(3, "c_read", "read_file", longText, "done", 1500),
    tool(4, "c_gone", "read_file", "Error: ENOENT: no such file", "failed", 3),
    tool(5, "c_list", "list_directory", JSON.stringify(content), "done", 42),
    tool(6, "c_write", "write_file", "The user denied this call.", "denied", 0),
    { ...answer!, seq: 7 },
  ];
  const imported = await request.post("/api/conversations/import", { data: exported, headers: { "content-type": "application/json" } });
  expect(imported.status(), await imported.text()).toBe(201);
  const copy = ((await imported.json()) as { conversation: { id: string } }).conversation.id;
  await page.goto(`/c/${copy}`);
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");

  // One card per call, in the calls' order, each with its own result.
  const cards = page.getByTestId("tool-card");
  await expect(cards).toHaveCount(4);
  await expect(page.locator("[data-testid=message][data-role=tool]")).toHaveCount(4);
  const expected = [
    ["list_directory", "done", "42 ms"],
    ["write_file", "denied", "0 ms"],
    ["read_file", "done", "1.5 s"],
    ["read_file", "failed", "3 ms"],
  ];
  for (const [index, [name, status, duration]] of expected.entries()) {
    const card = cards.nth(index);
    await expect(card).toHaveAttribute("data-tool", name!);
    await expect(card.getByTestId("tool-status")).toHaveText(status!);
    await expect(card.getByTestId("tool-duration")).toHaveText(duration!);
    await expect(card.getByTestId("tool-server")).toHaveText("files");
  }
  await expect(cards.nth(3).getByTestId("tool-result-preview")).toContainText("ENOENT");

  // MCP content: text, a raster image, a withheld SVG, links (only the web one followable), an embedded resource.
  const listing = cards.nth(0);
  await listing.getByTestId("tool-card-toggle").click();
  await expect(listing.getByTestId("tool-arguments")).toContainText('"path": "/sample"');
  await expect(listing.getByTestId("tool-result-text")).toHaveText("Listed the sample folder");
  const image = listing.getByTestId("tool-result-image");
  await expect(image).toHaveAttribute("src", `data:image/png;base64,${PNG}`);
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1);
  await expect(listing.getByTestId("tool-result-withheld")).toContainText("type image/svg+xml is not displayed");
  const links = listing.getByTestId("tool-result-resource-link");
  await expect(links).toHaveCount(2);
  await expect(links.nth(0).locator("a")).toHaveAttribute("href", "https://example.org/readme");
  await expect(links.nth(0).locator("a")).toHaveAttribute("rel", /noopener/);
  await expect(links.nth(1).locator("a")).toHaveCount(0);
  await expect(links.nth(1)).toContainText("javascript:alert(1)");
  await expect(listing.getByTestId("tool-result-resource")).toContainText("remember the otter");

  // A long result: its first lines, then all of it on request.
  const reading = cards.nth(2);
  await reading.getByTestId("tool-card-toggle").click();
  const long = reading.getByTestId("tool-result-text");
  await expect(long).toHaveAttribute("data-clipped", "true");
  await expect(long).toContainText("line 12:");
  await expect(long).not.toContainText("line 13:");
  const more = reading.getByTestId("show-all");
  await expect(more).toHaveText(/Show all \(28 more lines, /);
  await more.click();
  await expect(long).not.toHaveAttribute("data-clipped", "true");
  await expect(long).toContainText("line 40: FACT k39=v39");
  await expect(more).toHaveText("Show less");
});

test("a long tool session: only the cards on screen are drawn, each still with its own result", async ({ page, request }) => {
  const id = await newConversation(page);
  await sendMessage(page, "what time is it?");
  const exported = (await (await request.get(`/api/conversations/${id}/export?format=json`)).json()) as { messages: ExportedMessage[] } & Record<string, unknown>;
  const [asked, caller, result, answer] = exported.messages;
  const ROUNDS = 150;
  const messages: ExportedMessage[] = [asked!];
  for (let round = 0; round < ROUNDS; round++) {
    const seq = 2 + round * 3;
    const calls = [`r${round}a`, `r${round}b`].map((callId) => ({ id: callId, name: "read_file", arguments: JSON.stringify({ path: `/f/${callId}` }) }));
    messages.push({ ...caller!, seq, toolCalls: calls });
    // Each round's results come back in the other order.
    for (const [offset, callId] of [`r${round}b`, `r${round}a`].entries()) {
      messages.push({ ...result!, seq: seq + 1 + offset, toolCallId: callId, toolName: "read_file", content: `contents of ${callId}`, toolOutcome: "done", toolDurationMs: 5, toolServer: "files" });
    }
  }
  messages.push({ ...answer!, seq: 2 + ROUNDS * 3 });
  exported.messages = messages;
  const imported = await request.post("/api/conversations/import", { data: exported, headers: { "content-type": "application/json" } });
  expect(imported.status(), await imported.text()).toBe(201);
  const copy = ((await imported.json()) as { conversation: { id: string } }).conversation.id;
  await page.goto(`/c/${copy}`);
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");

  // The last round is on screen, its results with their own calls.
  const last = ROUNDS - 1;
  const lastCards = page.locator("[data-testid=message][data-role=assistant]").filter({ has: page.getByTestId("tool-card") }).last().getByTestId("tool-card");
  await expect(lastCards).toHaveCount(2);
  for (const [index, callId] of [`r${last}a`, `r${last}b`].entries()) {
    await expect(lastCards.nth(index).getByTestId("tool-result-preview")).toHaveText(`contents of ${callId}`);
  }
  // Scores of calls loaded (the first page holds 200 messages), two dozen drawn (overscan 1000 draws 66).
  const drawn = await page.getByTestId("tool-card").count();
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThan(40);
});

test.describe("on a phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the card fits the screen closed and open, and has no serious axe violations", async ({ page }) => {
    await askTheTime(page);
    const card = await expectOneDoneCard(page);
    const fits = async () => {
      const box = await card.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    };
    await fits();
    await card.getByTestId("tool-card-toggle").tap();
    await expect(card.getByTestId("tool-card-body")).toBeVisible();
    await expect(card.getByTestId("tool-result-text")).toContainText('"iso"');
    await fits();
    // The result's text wraps inside the card rather than running off the screen.
    const pre = await card.getByTestId("tool-result-text").evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(pre.scroll).toBeLessThanOrEqual(pre.client + 1);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
