// A summary's cite is a link to the original: from a collapsed tree, following "(#17)"
// with the keyboard opens every level on the way and shows message #17, marked.
import path from "node:path";
import { expect, test } from "./support/fixtures";
import { newConversation } from "./support/helpers";
import { seedTree } from "./support/seed-tree";
import { balancedTree } from "../support/deep-tree";

const CITED = 17;

test("a summary's citation link opens the original message inside the collapsed tree", async ({ page }) => {
  // 80 messages: six level-1 blocks of 12, the first four merged into one level-2 block (#1–#48).
  const tree = balancedTree(80);
  const top = tree.compactions.find((c) => c.level === 2)!;
  top.summary = `The orchard irrigation plan was settled on drip lines (#${CITED}).\nThe budget stayed open (#30–#33).`;
  const id = await newConversation(page);
  await seedTree(id, tree);
  await page.reload();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");

  const block = page.locator(`[data-testid=compaction-block][data-id="${top.id}"]`);
  await expect(block).toHaveAttribute("data-expanded", "false");
  const original = page.locator(`[data-testid=message][data-seq="${CITED}"]`);
  await expect(original).toHaveCount(0);

  // The cite is a link (the whole summary is short enough to show collapsed, or one click away).
  const more = block.getByTestId("compaction-summary-more");
  if (await more.isVisible()) await more.click();
  const link = block.locator(`[data-testid=citation-link][data-seq="${CITED}"]`);
  await expect(link).toHaveText(`#${CITED}`);
  await expect(link).toHaveAttribute("href", `#m-${CITED}`);
  await expect(block.locator('[data-testid=citation-link][data-seq="30"]')).toHaveText("#30–#33");

  // Keyboard: focus the link, Enter.
  await link.focus();
  await expect(link).toBeFocused();
  await block.screenshot({ path: path.join(process.cwd(), "test-results", "citations", "cited-summary.png") });
  await page.keyboard.press("Enter");

  await expect(original).toBeVisible();
  await expect(original).toHaveAttribute("data-search-target", "true");
  await expect(original).toContainText(`Question ${CITED}`);
  await expect(original).toBeInViewport();
  // It sits inside the level-2 block and its level-1 child (#13–#24), both now open.
  await expect(block).toHaveAttribute("data-expanded", "true");
  const child = block.locator('[data-testid=compaction-block][data-level="1"][data-expanded=true]');
  await expect(child).toHaveCount(1);
  await expect(child.locator(`[data-testid=message][data-seq="${CITED}"]`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#m-${CITED}$`));
  await page.screenshot({ path: path.join(process.cwd(), "test-results", "citations", "cited-original.png") });
});
