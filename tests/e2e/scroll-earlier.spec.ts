// Issue 24, "load as you scroll up": a conversation a few hundred messages deep opens
// at its newest page; scrolling up loads the older pages by themselves (no button
// press), and the message the reader was looking at stays where it was on screen while
// a page is put above it. Desktop (wheel) and phone (touch-sized, scrolled by script).
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { newConversation } from "./support/helpers";
import { seedTree } from "./support/seed-tree";
import type { TreeMessage } from "../support/deep-tree";

const MESSAGES = 450;

const DEVICES = [
  { name: "desktop", viewport: { width: 1366, height: 900 }, touch: false },
  { name: "phone", viewport: { width: 390, height: 844 }, touch: true },
] as const;

/** Messages of varied height (one to six lines), so estimated and measured rows differ as they do in real use. */
function history(count: number): TreeMessage[] {
  return Array.from({ length: count }, (_, index) => {
    const seq = index + 1;
    const lines = Array.from({ length: 1 + (seq % 6) }, (_, line) => `Line ${line + 1} of message ${seq}: the harbour survey notes.`);
    return { seq, role: seq % 2 ? "user" : "assistant", content: lines.join("\n\n"), pinned: false };
  });
}

/** The lowest message number in the DOM (rows are virtualized: what is rendered around the view). */
async function lowestRendered(page: Page): Promise<number> {
  return page.locator('[data-testid="message"]').evaluateAll((rows) => Math.min(...rows.map((row) => Number(row.getAttribute("data-seq")))));
}

/**
 * Scrolls the timeline by `by` px, then reads the first message whose top is inside the
 * view and that top's distance from the view's top, in one synchronous step: a page that
 * the scroll starts loading cannot arrive between the scroll and the reading. From then on
 * the page notes, at every animation frame, where that message is (null: not drawn), so
 * that a view that jumps for a few frames and comes back is seen too.
 */
async function scrollAndWatchTop(page: Page, by: number): Promise<{ seq: number; offset: number }> {
  return page.getByTestId("timeline").evaluate((timeline, distance) => {
    timeline.scrollBy(0, distance);
    const top = () => timeline.getBoundingClientRect().top;
    const rows = [...timeline.querySelectorAll<HTMLElement>('[data-testid="message"]')]
      .map((row) => ({ seq: Number(row.dataset.seq), offset: row.getBoundingClientRect().top - top() }))
      .filter((row) => row.offset >= 0)
      .sort((a, b) => a.offset - b.offset);
    const anchor = rows[0]!;
    const frames: (number | null)[] = [];
    (window as unknown as { anchorFrames: (number | null)[] }).anchorFrames = frames;
    const note = () => {
      const row = timeline.querySelector<HTMLElement>(`[data-testid="message"][data-seq="${anchor.seq}"]`);
      frames.push(row ? row.getBoundingClientRect().top - top() : null);
      if (frames.length < 600) requestAnimationFrame(note);
    };
    requestAnimationFrame(note);
    return anchor;
  }, by);
}

/** Where message #seq is in the view now (its top from the view's top), or null when it is not rendered. */
async function offsetOf(page: Page, seq: number): Promise<number | null> {
  return page.getByTestId("timeline").evaluate((timeline, wanted) => {
    const row = timeline.querySelector<HTMLElement>(`[data-testid="message"][data-seq="${wanted}"]`);
    return row ? row.getBoundingClientRect().top - timeline.getBoundingClientRect().top : null;
  }, seq);
}

for (const device of DEVICES) {
  test.describe(`${device.name} ${device.viewport.width}×${device.viewport.height}`, () => {
    test.use({ viewport: device.viewport, hasTouch: device.touch, isMobile: device.touch });

    test("scrolling up loads earlier messages by itself, and the view does not jump", async ({ page }) => {
      test.setTimeout(120_000);
      const id = await newConversation(page);
      await seedTree(id, { messages: history(MESSAGES), compactions: [] });
      await page.reload();
      await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
      const timeline = page.getByTestId("timeline");
      await expect(timeline.locator(`[data-seq="${MESSAGES}"]`)).toBeVisible();
      // Opened at the bottom with the newest page only; opening alone loads no other.
      await page.waitForTimeout(800);
      expect(await lowestRendered(page)).toBeGreaterThan(MESSAGES - 20);
      const requests: string[] = [];
      page.on("request", (request) => {
        if (/\/api\/conversations\/[^/]+\/messages\?.*beforeSeq=/.test(request.url())) requests.push(request.url());
      });

      // Scroll up the way a reader does, in steps, until the top of the loaded page is near.
      for (let step = 0; step < 400 && (await timeline.evaluate((element) => element.scrollTop)) > 1500; step++) {
        if (device.touch) await timeline.evaluate((element) => element.scrollBy(0, -700));
        else {
          await timeline.hover();
          await page.mouse.wheel(0, -700);
        }
        await page.waitForTimeout(30);
      }
      expect(requests, "a page loaded before the reader came near the top").toEqual([]);
      // Let the last wheel step come to rest, so that only the page can move the view from here.
      let resting = -1;
      await expect.poll(async () => resting === (resting = await timeline.evaluate((element) => element.scrollTop))).toBe(true);
      // The last bit to the top: what is at the top of the view then must stay where it is.
      const anchor = await scrollAndWatchTop(page, -1500);
      // The older page arrives without a click: messages before the one at the top appear above it.
      await expect.poll(() => requests.length, { timeout: 15_000 }).toBe(1);
      await expect.poll(() => lowestRendered(page)).toBeLessThan(anchor.seq);
      // The message that was at the top of the view is still there, where it was, and was
      // at every frame drawn meanwhile (rows measured late may nudge it a little).
      await page.waitForTimeout(300);
      const after = await offsetOf(page, anchor.seq);
      expect(after, `message #${anchor.seq} left the view when the earlier page arrived`).not.toBeNull();
      expect(Math.abs(after! - anchor.offset), `message #${anchor.seq} moved from ${anchor.offset} to ${after}`).toBeLessThan(40);
      const frames = await page.evaluate(() => (window as unknown as { anchorFrames: (number | null)[] }).anchorFrames);
      const off = frames.filter((offset) => offset === null || Math.abs(offset - anchor.offset) >= 40);
      expect(off, `of ${frames.length} frames, these showed message #${anchor.seq} away from ${anchor.offset}`).toEqual([]);

      // Going on up reaches message #1 without pressing anything.
      for (let step = 0; step < 600 && (await offsetOf(page, 1)) === null; step++) {
        if (device.touch) await timeline.evaluate((element) => element.scrollBy(0, -900));
        else {
          await timeline.hover();
          await page.mouse.wheel(0, -900);
        }
        await page.waitForTimeout(30);
      }
      await expect(timeline.locator('[data-seq="1"]')).toBeVisible();
      await expect(page.getByTestId("load-earlier")).toHaveCount(0);
      expect(requests.length).toBe(2);
      await page.screenshot({ path: test.info().outputPath(`scroll-earlier-${device.name}.png`) });
    });
  });
}
