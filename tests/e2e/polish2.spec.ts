// Rough edges, part two: the new API token can be copied and revoke asks first, and a
// reply regenerated in the middle of a conversation says where the later turns went.
import { expect, test } from "./support/fixtures";
import { newConversation, resetModelServer, saveTestSettings, scriptTurns, seriousAxeViolations, untilSettled } from "./support/helpers";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

test("a new API token has a Copy button that says Copied; revoke asks first, by mouse and by keyboard", async ({ page }) => {
  await page.goto("/account");
  const name = `copy-me ${Date.now()}`;
  await page.getByTestId("token-name").fill(name);
  await page.getByTestId("token-create").click();
  const token = (await page.getByTestId("token-value").textContent())!.trim();

  const copy = page.getByTestId("token-copy");
  await expect(copy).toHaveText("Copy");
  await copy.click();
  await expect(copy).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  expect(await seriousAxeViolations(page)).toEqual([]);

  const row = page.getByTestId("token-row").filter({ hasText: name });
  // Cancel keeps the token, and the focus goes back to Revoke.
  await row.getByTestId("token-revoke").click();
  await expect(row.getByTestId("token-revoke-confirm")).toContainText("Revoke?");
  await row.getByTestId("token-revoke-cancel").click();
  await expect(row.getByTestId("token-revoke-confirm")).toHaveCount(0);
  await expect(row.getByTestId("token-revoke")).toBeFocused();

  // By keyboard: Enter asks, the focus is on Yes, Escape cancels; Enter twice revokes.
  await page.keyboard.press("Enter");
  await expect(row.getByTestId("token-revoke-yes")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(row.getByTestId("token-revoke")).toBeFocused();
  await page.reload();
  await expect(row).toHaveCount(1);
  await row.getByTestId("token-revoke").focus();
  await page.keyboard.press("Enter");
  await expect(row.getByTestId("token-revoke-yes")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("token-row").filter({ hasText: name })).toHaveCount(0);
});

test("regenerating a middle reply says, where the later turns were, that they belong to the other version", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, ["first", "second", "third"]);
  await page.reload();
  const replies = page.locator("[data-testid=message][data-role=assistant]");
  await expect(replies).toHaveCount(3);
  await expect(page.getByTestId("later-turns-notice")).toHaveCount(0);

  await replies.first().hover();
  await untilSettled(page, () => replies.first().getByTestId("regenerate-reply").click());
  await expect(page.getByTestId("message")).toHaveCount(2);
  // Under the new reply, the last message shown: the 4 messages of "second" and "third" with their replies.
  const notice = replies.last().getByTestId("later-turns-notice");
  await expect(notice).toHaveText("4 later messages belong to the other version — switch back with ‹ › above.");
  expect(await seriousAxeViolations(page)).toEqual([]);

  // Back on version 1 the turns are there, and the new version has nothing after it to speak of.
  await untilSettled(page, () => page.getByTestId("version-previous").click());
  await expect(page.getByTestId("message")).toHaveCount(6);
  await expect(page.getByTestId("later-turns-notice")).toHaveCount(0);
});

test("the chat header leaves the title room at 1366, 1024 and 800 px, and on a phone it is the only top bar", async ({ page }) => {
  const title = "Migrating the billing service from cron jobs to queues";
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/");
  const origin = new URL(page.url()).origin;
  const created = await page.request.post("/api/conversations", { data: { title }, headers: { origin } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = ((await created.json()) as { conversation: { id: string } }).conversation;
  await page.goto(`/c/${id}`);
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  const heading = page.getByTestId("conversation-heading");
  // With every header control shown (meter, cost, Compress now, Settings, Tools, Pinned,
  // Activity, Export, Share) the title still reads: it had about 30 px before.
  expect((await heading.boundingBox())!.width).toBeGreaterThan(250);
  // The controls that show only an icon here keep their words as their names.
  await expect(page.getByRole("button", { name: "Pinned" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Share…" })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  // Beside the sidebar a small laptop leaves the header 768 px (1024) or less: the title
  // was 0 px wide there. From 1024 px the controls stay in the row, below it they fold
  // into the menu; the title reads either way, and nothing leaves the header.
  for (const width of [1024, 800]) {
    await page.setViewportSize({ width, height: 768 });
    expect((await heading.boundingBox())!.width, `title at ${width} px`).toBeGreaterThan(150);
    const bar = (await heading.locator("xpath=ancestor::header").boundingBox())!;
    const meter = page.getByTestId("context-meter");
    if (width >= 1024) {
      await expect(meter).toBeVisible();
      const box = (await page.getByTestId("header-controls").boundingBox())!;
      expect(box.x + box.width, `controls at ${width} px`).toBeLessThanOrEqual(bar.x + bar.width);
      expect(box.height, `controls on one line at ${width} px`).toBeLessThanOrEqual(36);
    } else {
      await expect(meter).toBeHidden();
      // The meter's figure stays beside the menu's button, the same figure the meter shows.
      const figure = page.getByTestId("context-meter-figure");
      await expect(figure).toBeVisible();
      await page.getByTestId("header-menu-toggle").click();
      await expect(meter).toBeVisible();
      expect(await figure.getAttribute("data-percent")).toBe(await meter.getAttribute("data-percent"));
      await expect(figure).toHaveText(`${await meter.getAttribute("data-percent")}%`);
      await page.getByTestId("header-menu-toggle").click();
    }
  }

  await page.setViewportSize({ width: 390, height: 844 });
  const header = (await heading.locator("xpath=ancestor::header").boundingBox())!;
  const toggle = (await page.getByTestId("drawer-toggle").boundingBox())!;
  expect(toggle.y).toBeGreaterThanOrEqual(header.y);
  expect(toggle.y + toggle.height).toBeLessThanOrEqual(header.y + header.height);
  // The title starts right of the button, not under it.
  expect((await heading.boundingBox())!.x).toBeGreaterThanOrEqual(toggle.x + toggle.width);
  await page.screenshot({ path: test.info().outputPath("phone-header.png") });
});
