// Keyboard-only use of the chat view: Tab walks the header's controls in reading order,
// each with a visible focus ring; a dialog opened with Enter takes the focus, Escape
// closes it and gives the focus back to the button that opened it; the export menu
// closes on Escape too.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { newConversation } from "./support/helpers";

/** The focused element's test id, and whether it draws a focus ring (an outline of some width). */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const style = element ? getComputedStyle(element) : null;
    return {
      testid: element?.dataset.testid ?? element?.tagName ?? null,
      ring: Boolean(style && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0),
      inDialog: Boolean(element?.closest("dialog[open]")),
    };
  });
}

/** Presses Tab until the element with `testid` has the focus; returns the test ids passed on the way. */
async function tabTo(page: Page, testid: string, limit = 60): Promise<string[]> {
  const passed: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    expect(now.ring, `${now.testid} has the focus but no visible focus ring`).toBe(true);
    if (now.testid === testid) return passed;
    passed.push(String(now.testid));
  }
  throw new Error(`Tab never reached ${testid}; it went through ${passed.join(", ")}`);
}

test("keyboard only: visible focus in reading order; Enter opens a dialog that takes the focus; Escape closes it and the export menu", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  await page.getByTestId("conversation-heading").click();

  await tabTo(page, "conversation-settings");
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("conversation-settings-dialog");
  await expect(dialog).toBeVisible();
  await expect.poll(async () => (await focused(page)).inDialog, { message: "the open dialog holds the focus" }).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("conversation-settings")).toBeFocused();

  // On from there, the header's controls come in the order they are shown.
  expect(await tabTo(page, "export-toggle")).toEqual(["tool-servers-toggle", "pinned-list-open", "activity-toggle", "settings-link"]);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("export-json")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("export-json")).toBeHidden();
});
