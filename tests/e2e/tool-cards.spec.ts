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
