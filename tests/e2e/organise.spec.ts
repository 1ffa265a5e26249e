// Organise conversations (issue 24, item 4): rename inline by keyboard (F2, Enter,
// Escape), pin to the top, archive (and find it again in the archive and in search), the
// date group headers, deleting a message in the middle; on a desktop and on a phone.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { resetModelServer, saveTestSettings, scriptTurns } from "./support/helpers";

test.setTimeout(180_000);

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

const created: string[] = [];
test.afterAll(async ({ request }) => {
  // The database outlives this spec: later specs' sidebars should not hold these.
  for (const id of created.splice(0)) await request.delete(`/api/conversations/${id}`, { headers: { origin: originOf() } });
});

const originOf = () => new URL(test.info().project.use.baseURL!).origin;

async function conversation(request: APIRequestContext, title: string, turns: string[]): Promise<string> {
  const response = await request.post("/api/conversations", { data: { title }, headers: { origin: originOf() } });
  expect(response.status(), await response.text()).toBe(201);
  const { id } = ((await response.json()) as { conversation: { id: string } }).conversation;
  created.push(id);
  await scriptTurns(request, id, turns);
  return id;
}

const item = (page: Page, id: string) => page.locator(`[data-testid=conversation-item][data-id="${id}"]`);
const groupOf = (page: Page, id: string) => item(page, id).locator("xpath=ancestor::section[1]").getAttribute("data-label");

test("rename inline by keyboard, pin, archive, date groups, delete a middle message (1366×900)", async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const alpha = await conversation(request, "Organise alpha", ["The quokkaberry question, please answer briefly."]);
  const beta = await conversation(request, "Organise beta", ["first turn", "second turn", "third turn"]);
  await page.goto("/");

  // Date groups: both were active today.
  await expect(page.getByTestId("date-group").filter({ hasText: "Today" })).toBeVisible();
  expect(await groupOf(page, alpha)).toBe("Today");

  // F2 on the focused item renames it; Enter saves, focus returns to the item.
  await item(page, alpha).getByRole("link").focus();
  await page.keyboard.press("F2");
  const input = page.getByTestId("rename-input");
  await expect(input).toBeFocused();
  await input.fill("Renamed by keyboard");
  await page.keyboard.press("Enter");
  await expect(item(page, alpha).getByTestId("conversation-title")).toHaveText("Renamed by keyboard");
  await expect(item(page, alpha).getByRole("link")).toBeFocused();
  // Escape keeps the title; an empty one is refused with a message, nothing lost.
  await page.keyboard.press("F2");
  await input.fill("Not this");
  await page.keyboard.press("Escape");
  await expect(item(page, alpha).getByTestId("conversation-title")).toHaveText("Renamed by keyboard");
  await item(page, alpha).getByTestId("rename-conversation").click();
  await input.fill("   ");
  await page.keyboard.press("Enter");
  await expect(item(page, alpha).getByRole("alert")).toHaveText("The title is empty.");
  await page.keyboard.press("Escape");
  await page.reload();
  await expect(item(page, alpha).getByTestId("conversation-title")).toHaveText("Renamed by keyboard");

  // Pin to top: the Pinned group comes first.
  await item(page, beta).getByTestId("conversation-actions").click();
  await item(page, beta).getByTestId("pin-conversation").click();
  await expect(page.getByTestId("date-group").first()).toHaveText("Pinned");
  expect(await groupOf(page, beta)).toBe("Pinned");
  await page.reload();
  expect(await groupOf(page, beta)).toBe("Pinned");

  // Archive: out of the main list, in the archive, and still found by search (labelled).
  await item(page, alpha).getByTestId("conversation-actions").click();
  await item(page, alpha).getByTestId("archive-conversation").click();
  await expect(item(page, alpha)).toHaveCount(0);
  await page.getByTestId("archive-toggle").click();
  await expect(page.getByTestId("archived-list").locator(`[data-id="${alpha}"]`)).toBeVisible();
  await page.getByTestId("sidebar-search").fill("quokkaberry");
  const hit = page.getByTestId("search-hit").filter({ hasText: "Renamed by keyboard" }).first();
  await expect(hit.getByTestId("hit-archived")).toHaveText("archived");
  await page.getByTestId("sidebar-search").fill("");
  await page.screenshot({ path: test.info().outputPath("organise-sidebar-desktop.png") });

  // Delete the middle message (#3 of 6): gone, the others keep their numbers.
  await item(page, beta).getByRole("link").click();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  const third = page.locator("[data-testid=message][data-seq='3']");
  await third.hover();
  await third.getByTestId("delete-message").click();
  await expect(third.getByTestId("delete-message-confirm")).toContainText("Delete message #3?");
  await third.getByTestId("confirm-delete-message").click();
  await expect(page.locator("[data-testid=message][data-seq='3']")).toHaveCount(0);
  await expect(page.getByTestId("message")).toHaveCount(5);
  await expect(page.locator("[data-testid=message][data-seq='4']").getByTestId("message-link")).toHaveText("#4");
  await expect(item(page, beta)).toContainText("5 messages");
  await page.reload();
  await expect(page.getByTestId("message")).toHaveCount(5);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the drawer shows the groups and the item actions by keyboard and touch", async ({ page, request }) => {
    const gamma = await conversation(request, "Organise gamma on a phone", ["hello from the phone"]);
    await page.goto("/");
    await page.getByTestId("drawer-toggle").click();
    await expect(page.getByTestId("drawer")).toHaveAttribute("data-open", "true");
    await expect(page.getByTestId("date-group").filter({ hasText: "Today" })).toBeInViewport();
    await item(page, gamma).getByTestId("conversation-actions").click();
    await expect(item(page, gamma).getByTestId("pin-conversation")).toBeInViewport();
    await item(page, gamma).getByTestId("pin-conversation").click();
    // The item moves once the server agreed to the pin.
    await expect.poll(() => groupOf(page, gamma)).toBe("Pinned");
    await item(page, gamma).getByRole("link").focus();
    await page.keyboard.press("F2");
    await page.getByTestId("rename-input").fill("Gamma renamed");
    await page.keyboard.press("Enter");
    await expect(item(page, gamma).getByTestId("conversation-title")).toHaveText("Gamma renamed");
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await page.screenshot({ path: test.info().outputPath("organise-sidebar-phone.png") });
  });
});
