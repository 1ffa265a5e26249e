// A code block, table or formula wider than its message scrolls sideways in its own box.
// A keyboard user reaches such a box with Tab (it says what it is) and scrolls it with the
// arrow keys; a box that fits is no tab stop, and one that stops scrolling (the window
// widened) stops being one (components/ui/scroll-regions.ts).
import AxeBuilder from "@axe-core/playwright";
import type { Locator } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { newConversation, resetModelServer, saveTestSettings, sendMessage } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

/** `\left(x_{1}+…\right)`: one piece KaTeX cannot break, so one box. */
function unbreakableFormula(name: string, terms: number): string {
  return `\\left(${Array.from({ length: terms }, (_, i) => `${name}_{${i + 1}}`).join("+")}\\right)`;
}

const TEXT = [
  "Wide code:",
  "",
  "```",
  `const wide = [${Array.from({ length: 60 }, (_, i) => `"item-${i}"`).join(", ")}];`,
  "```",
  "",
  "Medium code:",
  "",
  "```",
  // About 600 px: wider than a phone's message, narrower than a desktop's.
  `const medium = "${"m".repeat(70)}";`,
  "```",
  "",
  // Words are not broken to fit a table cell: fourteen columns are wider than a desktop's message.
  "| " + Array.from({ length: 14 }, (_, i) => `Measurement${i}`).join(" | ") + " |",
  "|" + " --- |".repeat(14),
  "| " + Array.from({ length: 14 }, (_, i) => `${1000 + i}.5`).join(" | ") + " |",
  "",
  "$$",
  unbreakableFormula("d", 80),
  "$$",
  "",
  `Inline: $${unbreakableFormula("a", 80)}$ after.`,
  "",
  "Short: $x^2$ and",
  "",
  "```",
  "ok()",
  "```",
  "",
  "REPLY_WORDS=3",
].join("\n");

/** Whether the focus is on something in `markdown` other than a button or a link. */
function focusInText(markdown: Locator): Promise<boolean> {
  return markdown.evaluate((element) => {
    const focused = document.activeElement;
    return focused !== null && element.contains(focused) && !focused.matches("button, a");
  });
}

test("a code block, table or formula that scrolls sideways is a named tab stop the arrow keys scroll; one that fits is none", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/");
  await newConversation(page);
  await sendMessage(page, TEXT);
  const mine = page.locator("[data-testid=message][data-role=user]");
  const markdown = mine.locator(".markdown");
  await expect(mine.locator(".katex")).toHaveCount(3);
  await page.evaluate(() => document.fonts.ready);

  const wideCode = markdown.locator("pre", { hasText: "const wide" });
  const mediumCode = markdown.locator("pre", { hasText: "const medium" });
  const shortCode = markdown.locator("pre", { hasText: "ok()" });
  const table = markdown.locator("table");
  const display = markdown.locator(".katex-display");
  const inline = markdown.locator("p", { hasText: "Inline:" }).locator(".math-box");
  const shortInline = markdown.locator("p", { hasText: "Short:" }).locator(".math-box");
  await expect(inline).toHaveCount(1);
  await expect(shortInline).toHaveCount(1);

  const named: [Locator, string][] = [
    [wideCode, "Code, scrolls sideways"],
    [mediumCode, "Code, scrolls sideways"],
    [table, "Table, scrolls sideways"],
    [display, "Formula, scrolls sideways"],
    [inline, "Formula, scrolls sideways"],
  ];

  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    const at = `at ${viewport.width}×${viewport.height}`;
    const phone = viewport.width < 500;
    // On a desktop the medium block fits.
    const wide = named.filter(([region]) => phone || region !== mediumCode);
    if (phone) await expect(mediumCode, `${at}: the medium block scrolls`).toHaveAttribute("tabindex", "0");
    else await expect(mediumCode, `${at}: the medium block fits`).not.toHaveAttribute("tabindex");
    for (const region of [shortCode, shortInline]) await expect(region, `${at}: what fits is no tab stop`).not.toHaveAttribute("tabindex");

    // From the message's link, Tab stops at each wide region in turn (past the code blocks' Copy buttons) and
    // nowhere else in the text; each says what it is, shows the focus ring, and scrolls with the arrow keys.
    await mine.getByTestId("message-link").focus();
    const linkRing = await mine.getByTestId("message-link").evaluate((link) => {
      const style = getComputedStyle(link);
      return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
    });
    for (const [region, name] of wide) {
      for (let presses = 0; presses < 10 && !(await focusInText(markdown)); presses++) await page.keyboard.press("Tab");
      await expect(region, `${at}: Tab reaches ${name}`).toBeFocused();
      await expect(region).toHaveAttribute("tabindex", "0");
      await expect(region).toHaveAccessibleName(name);
      if (region !== table) await expect(region).toHaveAttribute("role", "group");
      else await expect(region).toHaveRole("table");
      const ring = await region.evaluate((element) => {
        const style = getComputedStyle(element);
        return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
      });
      expect(ring, `${at}: ${name} shows the focus ring links and buttons show`).toBe(linkRing);
      expect(ring).toMatch(/^solid 2px /);
      const before = await region.evaluate((element) => element.scrollLeft);
      await page.keyboard.press("ArrowRight");
      await expect.poll(() => region.evaluate((element) => element.scrollLeft), `${at}: ArrowRight scrolls ${name}`).toBeGreaterThan(before);
      // On to the next stop.
      await page.keyboard.press("Tab");
    }

    const axe = await new AxeBuilder({ page }).include("[data-testid=message][data-role=user] .markdown").analyze();
    expect(
      axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
      `${at}: axe in the message`,
    ).toEqual([]);
  }

  // The window widened, narrowed and widened: the medium block is a tab stop only while it scrolls, the wide ones stay.
  for (const width of [1366, 390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    const phone = width < 500;
    if (phone) await expect(mediumCode, `at ${width}: the medium block scrolls`).toHaveAttribute("tabindex", "0");
    else await expect(mediumCode, `at ${width}: the medium block fits`).not.toHaveAttribute("tabindex");
    if (!phone) for (const attribute of ["role", "aria-label"]) await expect(mediumCode).not.toHaveAttribute(attribute);
    for (const region of [wideCode, table, display, inline]) await expect(region).toHaveAttribute("tabindex", "0");
  }
  // A block that stops scrolling while it has the focus keeps it (and its tab stop) until the focus leaves:
  // taking the tab stop at once would drop the focus to the page's start.
  await page.setViewportSize({ width: 390, height: 900 });
  await expect(mediumCode).toHaveAttribute("tabindex", "0");
  await mediumCode.focus();
  await page.setViewportSize({ width: 1366, height: 900 });
  await expect.poll(() => mediumCode.evaluate((element) => element.scrollWidth > element.clientWidth), "the medium block fits again").toBe(false);
  await expect(mediumCode, "the focused block keeps the focus while it fits again").toBeFocused();
  await mine.getByTestId("message-link").focus();
  await expect(mediumCode, "once the focus left, the block that fits is no tab stop").not.toHaveAttribute("tabindex");
  // The same when only the message's column narrows and widens, the window unchanged: nothing but the regions' own
  // sizes tells then (Chromium reports KaTeX's fonts loaded again on each window resize, which re-measures too).
  for (const [width, scrolls] of [["300px", true], ["", false]] as const) {
    await markdown.evaluate((element, value) => (element.style.width = value), width);
    if (scrolls) await expect(mediumCode, "in a narrowed column the medium block scrolls").toHaveAttribute("tabindex", "0");
    else await expect(mediumCode, "in the column widened again it fits").not.toHaveAttribute("tabindex");
  }
});
