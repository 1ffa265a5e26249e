// A 400-turn conversation compressed at a 2k window, as conversations compressed before
// the tree rule are stored (a chain up to level 22) and as a balanced tree of fan-out 4,
// on a desktop and on a phone (touch, no hover): message #1 is reached from the
// collapsed view in at most 3 interactions and renders at ≥ 60 % of the timeline's
// width; collapsed blocks read differently; the pinned message shows without opening
// anything; no block header or path bar is wider than its box.
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { newConversation } from "./support/helpers";
import { seedTree } from "./support/seed-tree";
import { balancedTree, chainTree, FIRST_MESSAGE_WORD, PINNED_SEQ, PINNED_TEXT } from "../support/deep-tree";

const SHOTS = path.join(process.cwd(), "test-results", "deep-tree");
const MESSAGES = 800;

const DEVICES = [
  { name: "desktop", viewport: { width: 1366, height: 900 }, touch: false },
  { name: "phone", viewport: { width: 390, height: 844 }, touch: true },
] as const;

/** Every header, path bar and block on screen fits its box (nothing spills sideways). */
async function expectNothingOverflows(page: Page): Promise<void> {
  const spills = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="compaction-header"], [data-testid="path-bar"], [data-testid="compaction-block"]')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => `${element.dataset.testid} ${element.closest("[data-level]")?.getAttribute("data-level")}: ${element.scrollWidth} > ${element.clientWidth}`),
  );
  expect(spills).toEqual([]);
}

/** The target's width over the timeline's, noted in the report. */
async function widthShare(target: Locator, page: Page): Promise<number> {
  const box = await target.boundingBox();
  const timeline = await page.getByTestId("timeline").boundingBox();
  const share = box!.width / timeline!.width;
  test.info().annotations.push({ type: "width", description: `${Math.round(box!.width)} of ${Math.round(timeline!.width)} px (${(share * 100).toFixed(0)} %)` });
  return share;
}

/** The title + range of every collapsed block on screen. */
async function collapsedTitles(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid=compaction-block][data-expanded=false] > [data-testid=compaction-header]')
    .evaluateAll((headers) => headers.map((header) => header.querySelector('[data-testid="compaction-title"]')!.textContent!.trim()));
}

async function openSeeded(page: Page, tree: ReturnType<typeof chainTree>): Promise<string> {
  const id = await newConversation(page);
  await seedTree(id, tree);
  await page.reload();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  return id;
}

for (const device of DEVICES) {
  test.describe(`${device.name} ${device.viewport.width}×${device.viewport.height}`, () => {
    test.use({ viewport: device.viewport, hasTouch: device.touch, isMobile: device.touch });
    const press = (target: Locator) => (device.touch ? target.tap() : target.click());
    // Seeding 800 messages and opening 22 levels: more than the default minute on a busy machine.
    test.setTimeout(150_000);

    test("a level-22 chain: Go to #1 opens it in 2 interactions at nearly full width; titles differ; the pin shows; headers fit", async ({ page }) => {
      await openSeeded(page, chainTree(MESSAGES, 22));
      const top = page.locator('[data-testid=compaction-block][data-depth="0"]');
      await page.getByTestId("timeline").evaluate((element) => element.scrollTo(0, 0));
      await expect(top.first()).toHaveAttribute("data-level", "22");
      await expect(top.first()).toHaveAttribute("data-expanded", "false");

      // Collapsed, the blocks say what they hold, not the generic opener, and differ.
      const titles = await collapsedTitles(page);
      expect(titles.length).toBeGreaterThanOrEqual(2);
      expect(new Set(titles).size).toBe(titles.length);
      for (const title of titles) expect(title).not.toMatch(/^Summary of the conversation so far/);

      // The pinned message, deep in the chain, shows beside the top block, nothing opened.
      const pinned = top.first().locator(`[data-testid=pinned-card][data-seq="${PINNED_SEQ}"]`);
      await expect(pinned).toBeVisible();
      await expect(pinned).toContainText(PINNED_TEXT);
      await expectNothingOverflows(page);
      await page.screenshot({ path: path.join(SHOTS, `${device.name}-chain-collapsed.png`) });

      // Interaction 1: type the number; interaction 2: Enter.
      await page.getByTestId("goto-input").fill("1");
      const asked = Date.now();
      await page.getByTestId("goto-input").press("Enter");
      const first = page.locator('[data-testid=message][data-seq="1"]');
      await expect(first).toBeVisible();
      await expect(first).toHaveAttribute("data-search-target", "true");
      test.info().annotations.push({ type: "go to #1", description: `${Date.now() - asked} ms to the marked message` });
      await expect(first).toContainText(FIRST_MESSAGE_WORD);
      await expect(first).toBeInViewport();
      expect(await widthShare(first, page)).toBeGreaterThanOrEqual(0.6);
      // Never nested deeper than the tree is high; every level on the way is open.
      await expect(page.locator("[data-testid=compaction-block][data-expanded=true]")).toHaveCount(22);

      // The path bar inside the lowest block says where #1 sits, and fits.
      const lowest = page.locator('[data-testid=compaction-block][data-level="1"][data-expanded=true]');
      const bar = lowest.getByTestId("path-bar").first();
      await expect(bar).toContainText("All");
      await expect(bar).toContainText("L22");
      await expect(bar).toContainText("L1 #1–#");
      await expectNothingOverflows(page);
      await page.screenshot({ path: path.join(SHOTS, `${device.name}-chain-at-1.png`) });

      // "All" takes the reader back to the collapsed tree.
      await press(bar.getByTestId("path-crumb").first());
      await expect(top.first()).toHaveAttribute("data-expanded", "false");

      // A number past the end is refused with the conversation's range.
      await page.getByTestId("goto-input").fill("9999");
      await page.getByTestId("goto-input").press("Enter");
      await expect(page.getByTestId("goto-error")).toContainText(`#1–#${MESSAGES}`);
      await page.screenshot({ path: path.join(SHOTS, `${device.name}-goto-error.png`) });
    });

    test("a balanced tree: the search hit for a word of #1 opens it in ≤ 3 interactions, at nearly full width", async ({ page }) => {
      const tree = balancedTree(MESSAGES);
      // The oldest top-level summary has left the model's view (the request carries its stand-in).
      const top = tree.compactions.filter((c) => c.parentId === null).sort((a, b) => a.fromSeq - b.fromSeq)[0]!;
      top.outOfView = `[#${top.fromSeq}–#${top.toSeq}, not shown] the oldest part`;
      await openSeeded(page, tree);
      await page.getByTestId("timeline").evaluate((element) => element.scrollTo(0, 0));
      const topBlocks = page.locator('[data-testid=compaction-block][data-depth="0"]');
      await expect(topBlocks.first()).toHaveAttribute("data-level", "4");
      // It says so on its header; the others, which the model reads whole, do not.
      await expect(topBlocks.first().getByTestId("compaction-out-of-view")).toHaveText("model sees one line");
      await expect(page.getByTestId("compaction-out-of-view")).toHaveCount(1);
      await expect(page.getByTestId("pinned-card")).toContainText(PINNED_TEXT);

      // Phone: open the drawer, type, tap the hit (3); desktop: type, click (2).
      if (device.touch) await press(page.getByTestId("drawer-toggle"));
      await page.getByTestId("sidebar-search").fill(FIRST_MESSAGE_WORD);
      const hit = page.getByTestId("search-hit").first();
      await expect(hit).toHaveAttribute("data-anchor", "m-1");
      await press(hit);

      const first = page.locator('[data-testid=message][data-seq="1"]');
      await expect(first).toHaveAttribute("data-search-target", "true");
      await expect(first).toBeInViewport();
      expect(await widthShare(first, page)).toBeGreaterThanOrEqual(0.6);
      await expect(page.locator("[data-testid=compaction-block][data-expanded=true]")).toHaveCount(4);

      // The siblings passed on the way stay collapsed, each with its own title.
      const titles = await collapsedTitles(page);
      expect(titles.length).toBeGreaterThanOrEqual(9);
      expect(new Set(titles).size).toBe(titles.length);
      await expectNothingOverflows(page);
      await page.screenshot({ path: path.join(SHOTS, `${device.name}-balanced-at-1.png`) });

      // Collapse all closes every level; Expand all opens one level of what is loaded.
      await press(page.getByTestId("collapse-all"));
      await expect(page.locator("[data-testid=compaction-block][data-expanded=true]")).toHaveCount(0);
      await press(page.getByTestId("expand-all"));
      await expect(page.locator('[data-testid=compaction-block][data-level="4"]')).toHaveAttribute("data-expanded", "true");
      await expect(page.locator('[data-testid=compaction-block][data-level="3"][data-expanded=false]')).toHaveCount(4);
    });
  });
}
