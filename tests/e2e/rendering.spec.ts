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

/** `length` characters of base64's alphabet with no space or line break: a pasted key, blob or minified line. */
function unbrokenRun(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let seed = 20_240_611;
  let run = "";
  for (let i = 0; i < length; i++) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    run += alphabet[seed >>> 26];
  }
  return run;
}

// Developers paste keys, base64 and minified code: `.markdown`'s overflow-wrap (app/globals.css) is what keeps such a
// run inside its bubble; without it the bubble grows as wide as the run.
test("a 100,000-character run with no space wraps inside its message on a phone and a desktop, and stays exact", async ({ page }) => {
  const run = unbrokenRun(100_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await newConversation(page);
  const composer = page.getByTestId("composer");
  // Pasted, as people bring such text.
  await page.evaluate((text) => navigator.clipboard.writeText(text), run);
  await composer.focus();
  await page.keyboard.press("ControlOrMeta+V");
  await expect(composer).toHaveValue(run);
  expect(await composer.evaluate((box) => box.scrollWidth <= box.clientWidth), "the composer wraps it").toBe(true);
  await untilSettled(page, () => composer.press("Enter"));

  const mine = page.locator("[data-testid=message][data-role=user]");
  // The demo model quotes the message back: the reply holds the same run.
  const reply = page.locator("[data-testid=message][data-role=assistant]");
  await expect(reply.locator(".markdown")).toContainText(run.slice(0, 200));
  for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 900 }]) {
    await page.setViewportSize(viewport);
    const at = `at ${viewport.width}×${viewport.height}`;
    for (const message of [mine, reply]) {
      // Nothing wider than its bubble: the run wraps instead of widening the message or the timeline.
      const widths = await message.evaluate((article) =>
        [article, ...article.querySelectorAll<HTMLElement>(".markdown, .markdown *")].map((element) => ({
          element: `${element.tagName}.${element.className}`,
          scroll: element.scrollWidth,
          client: element.clientWidth,
        })),
      );
      for (const { element, scroll, client } of widths) expect(scroll, `${at}: ${element} is wider than its box`).toBeLessThanOrEqual(client);
    }
    const sideways = await page.evaluate(() =>
      [document.documentElement, document.querySelector<HTMLElement>("[data-testid=timeline]")!].map((element) => element.scrollWidth - element.clientWidth),
    );
    expect(sideways, `${at}: the page and the timeline do not scroll sideways`).toEqual([0, 0]);
  }

  // Shown and copied exactly as pasted: nothing cut, escaped or joined.
  expect(await mine.locator(".markdown").textContent()).toBe(run);
  expect(await reply.locator(".markdown").textContent()).toContain(run);
  await mine.hover();
  await mine.getByTestId("copy-message").click();
  expect((await page.evaluate(() => navigator.clipboard.readText())) === run, "Copy gives the run as pasted").toBe(true);
});

// Issue: 3,000 ">" in a row overflowed the Markdown parser's stack while the timeline rendered, and the conversation
// showed "This page could not be loaded" on every visit; other inputs (20,000 "x](y)", an unfenced JSON array) took
// seconds of the reader's tab. Such a text is shown as written (components/ui/markdown-budget.ts).
test("a message whose Markdown would overflow the parser is shown as written, and its conversation opens, on a desktop and a phone", async ({ page }) => {
  const hostile = `${">".repeat(5_000)} the quote that never ends`;
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/");
  await newConversation(page);
  const composer = page.getByTestId("composer");
  await composer.fill(hostile);
  await untilSettled(page, () => composer.press("Enter"));
  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await page.reload();
    const mine = page.locator("[data-testid=message][data-role=user]");
    await expect(mine).toHaveCount(1);
    await expect(page.locator("[data-testid=message][data-role=assistant]")).toHaveCount(1);
    const body = mine.locator("[data-as-written=true]");
    await expect(body).toContainText("Shown as written");
    expect(await body.locator("p").first().textContent()).toBe(hostile);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(sideways, `at ${viewport.width}×${viewport.height}: the page does not scroll sideways`).toBe(0);
  }
});

/** `\left(x_{1}+x_{2}+…\right)`: a formula KaTeX cannot break (it breaks only after an operator outside any group), written without spaces. */
function unbreakableFormula(name: string, terms: number): string {
  return `\\left(${Array.from({ length: terms }, (_, i) => `${name}_{${i + 1}}`).join("+")}\\right)`;
}

// Issue: a long `$…$` widened its message, and the whole conversation scrolled sideways (display math and tables
// scrolled in their own box already). Now each piece KaTeX cannot break is in a box that scrolls (rehypeMathBoxes,
// components/ui/math.ts; `.math-box` in app/globals.css), and a short formula sits on its line as before.
test("a long inline formula scrolls in its own box, in a paragraph, a list and a table; a short one stays on its line", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await newConversation(page);
  const text = [
    "Short $x^2$ here and there.",
    `Then $${unbreakableFormula("a", 60)}$ after.`,
    "",
    `- In a list $${unbreakableFormula("b", 40)}$ too`,
    "",
    "| formula | note |",
    "| --- | --- |",
    `| $${unbreakableFormula("c", 40)}$ | wide |`,
  ].join("\n");
  await sendMessage(page, text);
  const mine = page.locator("[data-testid=message][data-role=user]");
  // The demo model quotes the message back on one line: the reply holds the same four formulas, in a paragraph.
  const reply = page.locator("[data-testid=message][data-role=assistant]");
  await expect(mine.locator(".katex")).toHaveCount(4);
  await expect(reply.locator(".katex")).toHaveCount(4);
  await expect(mine.locator("li .katex, td .katex")).toHaveCount(2);
  await page.evaluate(() => document.fonts.ready);

  for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 900 }]) {
    await page.setViewportSize(viewport);
    const at = `at ${viewport.width}×${viewport.height}`;
    const sideways = await page.evaluate(() =>
      [document.documentElement, document.querySelector<HTMLElement>("[data-testid=timeline]")!].map((element) => element.scrollWidth - element.clientWidth),
    );
    expect(sideways, `${at}: the page and the timeline do not scroll sideways`).toEqual([0, 0]);

    for (const message of [mine, reply]) {
      const formulas = await message.evaluate((article) => {
        const markdown = article.querySelector(".markdown")!.getBoundingClientRect();
        return [...article.querySelectorAll<HTMLElement>(".katex")].map((formula) => {
          const box = formula.getBoundingClientRect();
          const scroller = formula.closest("table") ?? formula.querySelector<HTMLElement>(".katex-html > *")!;
          const scrolls = scroller.scrollWidth > scroller.clientWidth;
          const before = scroller.scrollLeft;
          scroller.scrollLeft = 60;
          const moved = scroller.scrollLeft > before;
          scroller.scrollLeft = before;
          const outer = formula.closest("table") ?? formula;
          return {
            formula: formula.querySelector("annotation")!.textContent!.slice(0, 24),
            inTable: formula.closest("table") !== null,
            width: Math.round(box.width),
            within: outer.getBoundingClientRect().left >= markdown.left - 0.5 && outer.getBoundingClientRect().right <= markdown.right + 0.5,
            scrolls,
            moved,
            markdown: Math.round(markdown.width),
          };
        });
      });
      for (const { formula, inTable, width, within, scrolls, moved, markdown } of formulas) {
        const role = `${at}, ${await message.getAttribute("data-role")} message, ${formula}`;
        // The formula (or, in a table, the table, which scrolls as a whole) stays inside the message.
        expect(within, `${role}: inside the message`).toBe(true);
        if (!inTable) expect(width, `${role}: no wider than the message`).toBeLessThanOrEqual(markdown);
        // A long one scrolls in its own box, a short one does not.
        const short = formula.startsWith("x^2");
        expect({ scrolls, moved }, `${role}: ${short ? "does not scroll" : "scrolls in its own box"}`).toEqual({ scrolls: !short, moved: !short });
      }

      // The short formula sits on its line as before: on the baseline of the text around it, inside the line.
      const short = await message.evaluate((article) => {
        const formula = article.querySelector<HTMLElement>(".katex")!;
        const paragraph = formula.closest("p")!;
        // An empty inline-block sits on the baseline (its bottom edge); x² has no depth, so KaTeX's strut ends there too.
        const probe = document.createElement("span");
        probe.style.display = "inline-block";
        formula.before(probe);
        const baseline = probe.getBoundingClientRect().bottom;
        probe.remove();
        const range = document.createRange();
        range.selectNodeContents(formula.previousSibling!);
        const word = [...range.getClientRects()].at(-1)!;
        const box = formula.getBoundingClientRect();
        const lineHeight = parseFloat(getComputedStyle(paragraph).lineHeight);
        // In my message the formula is on the first line, and the second line starts with "Then".
        const then = [...paragraph.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trimStart().startsWith("Then"));
        if (then) {
          const start = then.textContent!.indexOf("Then");
          range.setStart(then, start);
          range.setEnd(then, start + 4);
        }
        return {
          baselines: Math.abs(formula.querySelector(".katex-strut")!.getBoundingClientRect().bottom - baseline),
          sameLine: box.left >= word.right - 0.5 && box.top < word.bottom && box.bottom > word.top,
          inLine: box.top >= baseline - lineHeight && box.bottom <= baseline + lineHeight / 2,
          firstLine: then ? { top: box.top - paragraph.getBoundingClientRect().top, bottom: box.bottom - paragraph.getBoundingClientRect().top, lineHeight } : null,
          lineGap: then ? range.getClientRects()[0]!.top - word.top : null,
          lineHeight,
        };
      });
      const role = `${at}, ${await message.getAttribute("data-role")} message, x^2`;
      expect(short.baselines, `${role}: on the text's baseline`).toBeLessThan(0.5);
      expect(short.sameLine, `${role}: on the same line as the word before it`).toBe(true);
      expect(short.inLine, `${role}: inside its line`).toBe(true);
      if (short.firstLine) {
        // Inside the first line's box, which is no taller than any other line.
        expect(short.firstLine.top, `${role}: below the line's top`).toBeGreaterThanOrEqual(0);
        expect(short.firstLine.bottom, `${role}: above the line's bottom`).toBeLessThanOrEqual(short.lineHeight);
        expect(Math.abs(short.lineGap! - short.lineHeight), `${role}: the next line is one line height below`).toBeLessThan(0.5);
      }
    }
  }
});
