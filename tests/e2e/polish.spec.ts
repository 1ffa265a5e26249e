// Rough edges a daily user of chat apps hits: LaTeX delimiters as models write them, code
// blocks that name their language, message actions on a touch screen, the conversation
// dialog's messages in words, "/" for search, Continue's missing space, and the label of
// a summary the user edited.
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import {
  newConversation,
  resetModelServer,
  saveTestSettings,
  screenshotPath,
  scriptTurns,
  sendAndStop,
  sendMessage,
  seriousAxeViolations,
  SMALL_WINDOW,
  untilSettled,
} from "./support/helpers";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

/** The opacity an element is drawn with: its own times every ancestor's. */
function drawnOpacity(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    let opacity = 1;
    for (let node: Element | null = element; node; node = node.parentElement) opacity *= Number(getComputedStyle(node).opacity);
    return opacity;
  });
}

const MATH_AND_CODE = [
  "Let \\(a^2 + b^2\\) be given:",
  "\\[",
  "c = \\sqrt{a^2+b^2}",
  "\\]",
  "and one line:",
  "$$\\frac{1}{2}$$",
  "but `\\(x\\)` is code.",
  "",
  "```python",
  'x = "\\(y\\)"',
  "```",
].join("\n");

async function sendMathAndCode(page: Page): Promise<Locator> {
  await newConversation(page);
  await sendMessage(page, MATH_AND_CODE);
  return page.locator("[data-testid=message][data-role=user]").first();
}

test("\\(…\\), \\[…\\] and a one-line $$…$$ are typeset, code keeps them as written", async ({ page }) => {
  await page.goto("/");
  const mine = await sendMathAndCode(page);
  const markdown = mine.locator(".markdown");
  // Inline a²+b², display c = √…, display ½.
  await expect(markdown.locator(".katex")).toHaveCount(3);
  await expect(markdown.locator(".katex-display")).toHaveCount(2);
  await expect(markdown.locator(".katex-display").nth(1).locator(".katex-html")).toContainText("1");
  // Markdown ate the backslashes before: "(a^2 + b^2)" showed as text.
  await expect(markdown).not.toContainText("(a^2");
  await expect(markdown.locator("p code")).toHaveText("\\(x\\)");
  await expect(markdown.locator("pre")).toHaveText('x = "\\(y\\)"');
  await page.screenshot({ path: screenshotPath("polish-math-desktop") });
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test("a code block names its language", async ({ page }) => {
  await page.goto("/");
  const mine = await sendMathAndCode(page);
  await expect(mine.getByTestId("code-language")).toHaveText("python");
  await expect(mine.getByTestId("code-language")).toBeVisible();
  await mine.locator("pre").hover();
  await mine.getByTestId("copy-code").click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('x = "\\(y\\)"');
});

test("with a mouse the message actions wait for hover or focus", async ({ page }) => {
  await page.goto("/");
  const mine = await sendMathAndCode(page);
  await page.mouse.move(0, 0);
  expect(await drawnOpacity(mine.getByTestId("edit-message"))).toBeLessThan(0.1);
  await mine.hover();
  await expect.poll(() => drawnOpacity(mine.getByTestId("edit-message"))).toBeGreaterThan(0.5);
  // Keyboard focus shows them too.
  await page.mouse.move(0, 0);
  await mine.getByTestId("copy-message").focus();
  await expect.poll(() => drawnOpacity(mine.getByTestId("edit-message"))).toBeGreaterThan(0.5);
});

test.describe("on a phone (390×844, touch)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("message and code actions are visible without hover; the page passes axe", async ({ page }) => {
    await page.goto("/");
    const mine = await sendMathAndCode(page);
    const reply = page.locator("[data-testid=message][data-role=assistant]").first();
    for (const button of [
      mine.getByTestId("edit-message"),
      mine.getByTestId("copy-message"),
      mine.getByTestId("pin-toggle"),
      mine.getByTestId("copy-code"),
      reply.getByTestId("regenerate-reply"),
    ]) {
      await expect(button).toBeVisible();
      expect(await drawnOpacity(button)).toBeGreaterThan(0.5);
    }
    await expect(mine.getByTestId("code-language")).toHaveText("python");
    await expect(mine.locator(".katex-display")).toHaveCount(2);
    // A tap on an action works.
    await mine.getByTestId("copy-message").tap();
    await expect(mine.getByTestId("copy-message")).toHaveAttribute("data-state", "copied");
    await page.screenshot({ path: screenshotPath("polish-phone") });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

test("the conversation's settings say what a field takes and which setting a threshold conflicts with", async ({ page, request }) => {
  await saveTestSettings(request, { preemptiveThreshold: 0.7 });
  await page.goto("/");
  await newConversation(page);
  await page.getByTestId("conversation-settings").click();
  const dialog = page.getByTestId("conversation-settings-dialog");
  const row = dialog.getByTestId("override-threshold");
  // The pre-emptive threshold, which bounds this one, is shown with where it is set.
  await expect(row.getByTestId("preemptive-threshold-note")).toContainText("Pre-emptive threshold: 0.7 from your settings");
  await row.getByTestId("override-threshold-on").check();
  const value = row.getByTestId("override-threshold-value");
  const error = row.getByTestId("override-threshold-error");
  const save = dialog.getByTestId("conversation-settings-save");

  for (const text of ["", "abc", "1.5"]) {
    await value.fill(text);
    await save.click();
    await expect(error).toHaveText("Auto threshold must be a number above 0 and at most 1.");
  }
  await expect(dialog).not.toContainText("expected number");
  await expect(dialog).not.toContainText("Too big");

  await value.fill("0.6");
  await save.click();
  await expect(error).toContainText("must be above the pre-emptive threshold, 0.7 (from your settings)");
  await page.screenshot({ path: screenshotPath("polish-settings-dialog") });

  await value.fill("0.9");
  await save.click();
  await expect(dialog.getByTestId("conversation-settings-status")).toContainText("Saved");
  await expect(error).toHaveCount(0);
  await expect(row).toHaveAttribute("data-source", "conversation");
});

test('"/" outside a text field opens search; typed in the composer it is a character', async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  const composer = page.getByTestId("composer");
  const search = page.getByTestId("sidebar-search");
  await page.getByTestId("conversation-heading").click();
  await page.keyboard.press("/");
  await expect(search).toBeFocused();
  await expect(search).toHaveValue("");
  await expect(composer).toHaveValue("");

  await composer.click();
  await page.keyboard.type("a/b");
  await expect(composer).toHaveValue("a/b");
  await expect(composer).toBeFocused();
  await expect(search).toHaveValue("");
});

test("Continue after Stop puts a space between the stopped text and the continuation", async ({ page, request }) => {
  await page.goto("/");
  await newConversation(page);
  await sendAndStop(page, request, "REPLY_WORDS=400");
  const reply = page.locator("[data-testid=message][data-role=assistant]").last();
  await expect(reply).toHaveAttribute("data-status", "stopped");
  const partial = (await reply.locator(".markdown").innerText()).trim();
  await untilSettled(page, () => reply.getByTestId("continue-reply").click());
  await expect(reply).toHaveAttribute("data-status", "complete");
  const whole = await reply.locator(".markdown").innerText();
  expect(whole.startsWith(`${partial} `), `"${partial.slice(-30)}" is followed by "${whole.slice(partial.length, partial.length + 30)}"`).toBe(true);
  // After a reload (the stored reply) too.
  await page.reload();
  const stored = await page.locator("[data-testid=message][data-role=assistant]").last().locator(".markdown").innerText();
  expect(stored.startsWith(`${partial} `)).toBe(true);
});

/** A conversation of `turns` short FACT turns, and Compress now's preview of it, open. */
async function previewOf(page: Page, request: APIRequestContext, turns: string[]): Promise<{ preview: Locator; summary: Locator }> {
  await saveTestSettings(request, { ...SMALL_WINDOW, threshold: 0.95, maxSummaryTokensPerLevel: 3000 });
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, turns);
  await page.reload();
  await page.getByTestId("compress-now").click();
  await page.getByTestId("compact-preview-button").click();
  const preview = page.getByTestId("compaction-preview");
  const summary = preview.getByTestId("preview-summary");
  await expect(summary).toHaveValue(/FACT city=Lisbon/);
  return { preview, summary };
}

test('a summary applied from the preview reads "edited by you", without a duration', async ({ page, request }) => {
  const { preview, summary } = await previewOf(page, request, ["FACT city=Lisbon hello", "FACT pet=otter", "FACT tool=vim", "FACT lang=rust", "FACT os=linux"]);
  // The server's counts for the summary as proposed; an edit is estimated ("About").
  await expect(preview.getByTestId("preview-size")).toHaveText(/^[\d,]+ tokens in place of the [\d,]+ the messages cost$/);
  await expect(preview.getByTestId("preview-not-shorter")).toHaveCount(0);
  await summary.fill(`${await summary.inputValue()}\nMy own note.`);
  await expect(preview.getByTestId("preview-size")).toHaveText(/^About [\d,]+ tokens in place of/);
  await untilSettled(page, () => preview.getByTestId("preview-apply").click());
  const block = page.locator('[data-testid=compaction-block][data-trigger="manual"]');
  await expect(block.getByTestId("compaction-source")).toHaveText("edited by you");
  await expect(block.locator("header")).not.toContainText(/\d ms\b/);
});

test("a summary from the preview that cannot be applied says why inside the dialog, which stays open with the text", async ({ page, request }) => {
  const { preview, summary } = await previewOf(page, request, ["FACT city=Lisbon hello", "FACT pet=otter", "FACT tool=vim"]);
  // Longer than the messages it would replace: the server refuses it.
  const tooLong = `${await summary.inputValue()}\n${"A much longer note than the short messages it stands for. ".repeat(60)}`;
  await summary.fill(tooLong);
  // Said before Apply is pressed.
  await expect(preview.getByTestId("preview-not-shorter")).toContainText("Not shorter than the messages it replaces");
  await preview.getByTestId("preview-apply").click();
  await expect(preview.getByTestId("preview-apply-error")).toContainText(/Could not apply the summary|not shorter/);
  await expect(preview).toBeVisible();
  await expect(summary).toHaveValue(tooLong);
  await expect(page.locator('[data-testid=compaction-block][data-trigger="manual"]')).toHaveCount(0);
});

test("a message sent while the network is down stays in the box, with a reason in words, and goes once it is back", async ({ page, context, request }) => {
  await resetModelServer(request);
  await newConversation(page);
  await context.setOffline(true);
  try {
    await page.getByTestId("composer").fill("Sent while offline");
    await page.getByTestId("composer").press("Enter");
    const notice = page.getByTestId("notice").first();
    await expect(notice).toHaveText(/The server could not be reached \(check the network connection\)\. Your message was not sent; it is still in the box\./);
    await expect(notice).not.toContainText(/TypeError|Failed to fetch/);
    await expect(page.getByTestId("composer")).toHaveValue("Sent while offline");
  } finally {
    await context.setOffline(false);
  }
  await untilSettled(page, () => page.getByTestId("composer").press("Enter"));
  await expect(page.getByTestId("composer")).toHaveValue("");
  await expect(page.locator("[data-testid=message][data-role=user]").last()).toContainText("Sent while offline");
  await expect(page.getByTestId("notice")).toHaveCount(0);
});
