// How messages are drawn: highlighted code (Copy still copies the code as written), typeset
// math, prices that stay text, markup inside code or math that stays inert — all under the
// production content security policy. Plus the context meter's popover and its "cut" state,
// and the preview of a collapsed summary.
import type { Page } from "@playwright/test";
import { ADMIN_STATE } from "./support/accounts";
import { expect, test } from "./support/fixtures";
import { newConversation, resetModelServer, saveTestSettings, scriptTurns, sendMessage, untilSettled } from "./support/helpers";

test.use({ storageState: ADMIN_STATE, permissions: ["clipboard-read", "clipboard-write"] });

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

/** Every console message that reports a blocked resource or script. */
function cspViolations(page: Page): string[] {
  const found: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) found.push(message.text());
  });
  return found;
}

test("code is highlighted, math typeset, prices and markup stay text — with no CSP violation", async ({ page }) => {
  const violations = cspViolations(page);
  const exploded: string[] = [];
  page.on("dialog", (dialog) => {
    exploded.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto("/");
  await newConversation(page);

  const code = 'function greet(name: string): string {\n  return `<img src=x onerror="alert(1)">` + name; // <script>alert(2)</script>\n}';
  await sendMessage(page, `Here:\n\n\`\`\`ts\n${code}\n\`\`\``);
  const mine = page.locator("[data-testid=message][data-role=user]").first();
  const pre = mine.locator("pre");
  await expect(pre).toHaveAttribute("data-highlighted", "true");
  // Tokens with their own colours, not one plain run of text.
  const tokens = pre.locator("code.shiki span[style*='--shiki-light']");
  expect(await tokens.count()).toBeGreaterThan(8);
  const colours = await tokens.evaluateAll((spans) => new Set(spans.map((span) => getComputedStyle(span).color)).size);
  expect(colours).toBeGreaterThan(2);
  await expect(pre).toHaveText(code);
  await expect(mine.locator("pre img, pre script")).toHaveCount(0);
  await pre.hover();
  await mine.getByTestId("copy-code").click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

  await sendMessage(page, "Area $\\pi r^2$ and\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\nbut it costs $5 and $10, or $<img src=x onerror=\"alert(3)\">$.");
  const second = page.locator("[data-testid=message][data-role=user]").nth(1);
  await expect(second.locator(".katex").first()).toBeVisible();
  await expect(second.locator(".katex-display")).toHaveCount(1);
  await expect(second.locator(".katex-display .katex-html")).toContainText("1");
  await expect(second.locator(".markdown")).toContainText("it costs $5 and $10, or");
  await expect(second.locator(".markdown img, .markdown script")).toHaveCount(0);
  // KaTeX's fonts are served by the app (no CDN).
  await expect
    .poll(() => page.evaluate(() => [...document.fonts].some((font) => font.family.includes("KaTeX_Main") && font.status === "loaded")))
    .toBe(true);

  // A reload draws the same from the stored messages.
  await page.reload();
  await expect(page.locator("[data-testid=message][data-role=user] pre").first()).toHaveAttribute("data-highlighted", "true");
  await expect(page.locator("[data-testid=message][data-role=user]").nth(1).locator(".katex-display")).toHaveCount(1);

  expect(exploded).toEqual([]);
  expect(await page.title()).not.toBe("pwned");
  expect(violations).toEqual([]);
});

test("the context meter: the click after a hover keeps its popover open; a request over the limit reads 'cut'", async ({ page, request }) => {
  await saveTestSettings(request, { contextWindowOverrides: { "gpt-4o-mini": 4000 }, hardLimitReserve: 200, preemptiveThreshold: 0 });
  await page.goto("/");
  await newConversation(page);
  await sendMessage(page, "A small one REPLY_WORDS=5");
  const meter = page.getByTestId("context-meter");
  const details = page.getByTestId("context-meter-details");
  await expect(meter).toHaveAttribute("data-cut", "false");
  await expect(page.getByTestId("context-meter-label")).toHaveText(/^\d+%$/);

  await meter.hover();
  await expect(details).toBeVisible();
  await meter.click();
  await expect(details).toBeVisible();
  // Pinned: moving away keeps it; a second click closes it.
  await page.mouse.move(0, 400);
  await expect(details).toBeVisible();
  await meter.click();
  await expect(details).toBeHidden();
  await page.mouse.move(0, 400);
  await meter.hover();
  await expect(details).toBeVisible();
  await page.mouse.move(0, 400);
  await expect(details).toBeHidden();
  // Pinned, a click inside (to select a figure) keeps it open; a click elsewhere closes it.
  await meter.click();
  await details.locator("p").first().click();
  await page.mouse.move(0, 400);
  await expect(details).toBeVisible();
  await page.getByTestId("composer").click();
  await expect(details).toBeHidden();

  // One message five times the window: the request was cut, and the meter says so.
  await sendMessage(page, `REPLY_WORDS=5 ${"harbour lighthouse anchor ".repeat(3000)}`);
  await expect(meter).toHaveAttribute("data-cut", "true");
  await expect(page.getByTestId("context-meter-label")).toHaveText("cut");
  expect(Number(await meter.getAttribute("data-percent"))).toBeGreaterThan(100);
  // "cut" in words: by how much, what left the model's view, and that nothing stored is lost.
  await expect(meter).toHaveAccessibleName(/over the limit.*more than the hard limit of 3,800.*oldest messages leave its view.*Nothing stored is lost/);
  await meter.click();
  await expect(page.getByTestId("context-meter-cut")).toContainText("is cut to 3,800 tokens");
});

// Issue 20: a collapsed block shows its title only. It used to show the summary's first
// line under the title too, which repeated the title or read the same on every block
// ("Summary of the conversation so far."); the text is now there on request.
test("a collapsed summary shows its title only; the whole on request", async ({ page, request }) => {
  await saveTestSettings(request, { keepRecentCount: 2, threshold: 0.95, maxSummaryTokensPerLevel: 3000 });
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, ["FACT boat=Albatross", "FACT day=Friday", "FACT crew=four", "FACT harbour=Porto"]);
  await page.reload();
  await page.getByTestId("compress-now").click();
  await untilSettled(page, () => page.getByTestId("compact-run").click());
  const block = page.getByTestId("compaction-block").first();
  const summary = block.getByTestId("compaction-summary");
  const more = block.getByTestId("compaction-summary-more");

  await expect(block.getByTestId("compaction-title")).not.toBeEmpty();
  await expect(more).toHaveText("Show the summary");
  await expect(summary).toHaveText("Show the summary");
  await expect(more).toHaveAttribute("aria-expanded", "false");

  await more.click();
  for (const fact of ["FACT boat=Albatross", "FACT day=Friday", "FACT crew=four"]) await expect(summary).toContainText(fact);
  await expect(more).toHaveAttribute("aria-expanded", "true");
  await more.click();
  await expect(summary).not.toContainText("FACT boat=Albatross");
});
