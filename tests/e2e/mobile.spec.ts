import { request as playwrightRequest, type Locator, type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { tinyPng } from "../support/tiny-image";
import { newConversation, resetModelServer, scriptTurns, sendMessage, seriousAxeViolations, SMALL_WINDOW, saveTestSettings } from "./support/helpers";

test.use({ viewport: { width: 390, height: 844 } });
// Ten scripted turns and three axe runs on a shared 2-core machine.
test.setTimeout(240_000);

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, SMALL_WINDOW);
});

async function expectNoHorizontalScroll(page: Page, view: string) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, `${view}: page wider than the screen`).toBeLessThanOrEqual(widths.client);
  // The page's own columns do not scroll sideways either (a wide table may, in its own box).
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("main, main > *, [data-testid=timeline], [data-testid=conversation] > *")]
      .filter((element) => element.scrollWidth > element.clientWidth + 1 && ["auto", "scroll"].includes(getComputedStyle(element).overflowX))
      .map((element) => {
        // Name what sticks out, for the failure message.
        const edge = element.getBoundingClientRect().right;
        const out = [...element.querySelectorAll<HTMLElement>("*")].find((child) => child.getBoundingClientRect().right > edge + 1);
        return `${element.dataset.testid ?? element.tagName} (${out ? `${out.tagName}.${out.className.toString().slice(0, 80)}` : "?"})`;
      }),
  );
  expect(wide, `${view}: sideways scrolling inside`).toEqual([]);
}

/**
 * How each control of the open header menu looks: the menu's rows are its children (a
 * control, or a wrapper holding one and its popover); the dialogs some of them open are
 * children too, closed.
 */
async function headerMenuItems(page: Page) {
  return page.getByTestId("header-controls").evaluate((menu) =>
    [...menu.children]
      .filter((child) => child.tagName !== "DIALOG")
      .map((child) => {
        const control = child.matches("button, a") ? (child as HTMLElement) : child.querySelector<HTMLElement>("button, a")!;
        const box = control.getBoundingClientRect();
        const style = getComputedStyle(control);
        return {
          item: control.dataset.testid ?? control.tagName,
          text: control.innerText.trim(),
          look: {
            left: Math.round(box.left),
            width: Math.round(box.width),
            height: Math.round(box.height),
            font: `${style.fontSize} ${style.fontWeight} ${style.fontFamily}`,
            border: style.borderTopWidth,
            background: style.backgroundColor,
            justify: style.justifyContent,
          },
        };
      }),
  );
}

/** Serious and critical axe violations of the page as it is now, collected per view and checked at the end. */
const violations: string[] = [];
async function collectSeriousViolations(page: Page, view: string) {
  for (const violation of await seriousAxeViolations(page)) violations.push(`${view} · ${violation}`);
}

test("at 390×844: drawer, header menu, no sideways scroll and no serious axe violations on chat, settings and search", async ({ page, request }) => {
  await page.goto("/");
  const drawer = page.getByTestId("drawer");
  await expect(drawer).toHaveAttribute("data-open", "false");
  await expect(page.getByTestId("new-conversation")).not.toBeInViewport();

  // The drawer opens from the top bar and closes with Escape and with the backdrop.
  await page.getByTestId("drawer-toggle").click();
  await expect(drawer).toHaveAttribute("data-open", "true");
  await expect(page.getByTestId("new-conversation")).toBeInViewport();
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveAttribute("data-open", "false");
  await expect(page.getByTestId("drawer-toggle")).toBeFocused();
  await page.getByTestId("drawer-toggle").click();
  await page.getByTestId("drawer-backdrop").click({ position: { x: 380, y: 400 } });
  await expect(drawer).toHaveAttribute("data-open", "false");

  // Chat, with compaction blocks, at phone width.
  await page.getByTestId("drawer-toggle").click();
  const id = await newConversation(page);
  await expect(drawer).toHaveAttribute("data-open", "false");
  await scriptTurns(request, id, Array.from({ length: 10 }, (_, i) => `Turn ${i + 1}: FACT k${i + 1}=v${i + 1} an-unbroken-identifier-${"x".repeat(60)} REPLY_WORDS=120`));
  await page.reload();
  // The timeline is virtualized: the compaction block renders once scrolled to.
  await page.getByTestId("timeline").evaluate((element) => element.scrollTo(0, 0));
  await expect(page.getByTestId("compaction-block").first()).toBeVisible();
  // A block's cost line is read to its end (when the compaction pays for itself), not cut.
  const costLine = page.getByTestId("compaction-cost").first();
  await expect(costLine).toContainText(/for itself after \d+ turns?/);
  expect(await costLine.evaluate((element) => element.scrollWidth - element.clientWidth), "the cost line is cut").toBeLessThanOrEqual(0);
  await expectNoHorizontalScroll(page, "chat (compaction blocks)");
  await page.getByTestId("timeline").evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(page.getByTestId("composer")).toBeInViewport();
  await expectNoHorizontalScroll(page, "chat");

  // The header's controls fold into a menu; Escape closes it.
  await expect(page.getByTestId("activity-toggle")).toBeHidden();
  await page.getByTestId("header-menu-toggle").click();
  await expect(page.getByTestId("activity-toggle")).toBeVisible();
  await expect(page.getByTestId("export-toggle")).toBeVisible();
  // One list: every row says in words what it is, and looks like the others.
  const items = await headerMenuItems(page);
  expect(items.length).toBeGreaterThanOrEqual(8);
  for (const { item, text } of items) expect(text, `${item}: no visible words`).not.toBe("");
  for (const { item, look } of items) expect(look, `${item} looks unlike ${items[0]!.item}`).toEqual(items[0]!.look);
  await expectNoHorizontalScroll(page, "chat with the menu open");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("activity-toggle")).toBeHidden();
  await collectSeriousViolations(page, "chat");

  // Search, in the drawer.
  await page.getByTestId("drawer-toggle").click();
  await page.getByTestId("sidebar-search").fill("k2");
  await expect(page.getByTestId("search-hit").first()).toBeVisible();
  await expectNoHorizontalScroll(page, "search");
  await collectSeriousViolations(page, "search");
  await page.getByTestId("search-hit").first().click();
  await expect(drawer).toHaveAttribute("data-open", "false");
  await expect(page.locator("[data-search-target=true]")).toBeInViewport();

  // Settings.
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Compression settings" })).toBeVisible();
  await expectNoHorizontalScroll(page, "settings");
  await collectSeriousViolations(page, "settings");

  // The account page's token row and the admin page's tool servers (long command lines) stay on the screen.
  await page.goto("/account");
  await expect(page.getByTestId("token-create")).toBeInViewport();
  await expectNoHorizontalScroll(page, "account");
  await page.goto("/admin");
  await page.getByTestId("tool-server-add").click();
  const form = page.getByTestId("tool-server-form").last();
  await form.getByTestId("tool-server-name").fill("long-path");
  await form.getByTestId("tool-server-command").fill(`/opt/${"very-long-directory-name/".repeat(6)}node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`);
  await form.getByTestId("tool-server-save").click();
  const listed = page.getByTestId("tool-server-long-path");
  const remove = listed.getByRole("button", { name: "Remove" });
  await remove.scrollIntoViewIfNeeded();
  await expect(remove).toBeInViewport({ ratio: 1 });
  await expectNoHorizontalScroll(page, "admin");
  page.once("dialog", (dialog) => void dialog.accept());
  await remove.click();
  await expect(listed).toHaveCount(0);
  expect(violations, "serious accessibility violations").toEqual([]);
});

test("at 390×844: the context meter's details fit the screen and scroll inside when taller, with a cut request and every setting adjusted", async ({ page, request }) => {
  // A window so small that every budget setting is lowered and one message overflows it:
  // the details' longest form.
  await saveTestSettings(request, { contextWindowOverrides: { "gpt-4o-mini": 600 } });
  await page.goto("/");
  await newConversation(page);
  await sendMessage(page, `REPLY_WORDS=5 ${"harbour lighthouse anchor ".repeat(300)}`);
  // The meter is a row of the menu here; its figure stays in sight on the menu's button.
  const figure = page.getByTestId("context-meter-figure");
  await expect(figure).toHaveText("cut");
  await expect(figure).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("header-menu-toggle")).toHaveAccessibleName(/^Conversation menu, context cut, over the limit \(\d+%\)$/);
  await page.getByTestId("header-menu-toggle").click();
  await page.getByTestId("context-meter").click();
  const details = page.getByTestId("context-meter-details");
  await expect(details.getByTestId("context-meter-cut")).toBeVisible();
  const box = (await details.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y + box.height, "the details end above the bottom of the screen").toBeLessThanOrEqual(844);
  // Its last line is reached by scrolling the details themselves, and the details stay open.
  const last = details.getByTestId("context-meter-adjustments").locator("li").last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport({ ratio: 1 });
  await expect(details).toBeVisible();
  expect(await details.evaluate((element) => getComputedStyle(element).fontSize)).toBe("12px");
  await expectNoHorizontalScroll(page, "meter details");
  // A tap inside the details (to scroll them, or to select a figure) keeps them open; Escape closes them.
  await details.locator("p").first().click();
  await expect(details).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(details).toBeHidden();
});

test("at 390×844: an attachment chip shows the whole file name, also beside the reason a file was refused and under an image", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  const long = "a-rather-long-file-name-for-a-small-screen.md";
  const photo = "the-harbour-at-dusk-from-the-lighthouse.png";
  await page.getByTestId("attach-input").setInputFiles([
    { name: long, mimeType: "text/markdown", buffer: Buffer.from("Phone FACT code=8812") },
    { name: "empty.txt", mimeType: "text/plain", buffer: Buffer.from("") },
    { name: photo, mimeType: "image/png", buffer: Buffer.from(tinyPng(160, 90, [200, 80, 40])) },
  ]);
  const chips = page.getByTestId("draft-attachment");
  await expect(chips.nth(0)).toHaveAttribute("data-state", "ready");
  await expect(chips.nth(1)).toHaveAttribute("data-state", "failed");
  await expect(chips.nth(2)).toHaveAttribute("data-state", "ready");
  await expect(chips.nth(1).getByTestId("attachment-error")).toContainText("is empty");
  /** The name's element shows all of its text: nothing cut off or hidden behind an ellipsis. */
  const wholeName = async (chip: Locator, name: string) => {
    const element = chip.getByText(name, { exact: true });
    await expect(element).toBeVisible();
    const { scroll, client } = await element.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    expect(scroll, `"${name}" is cut`).toBeLessThanOrEqual(client);
    const chipBox = (await chip.boundingBox())!;
    expect(chipBox.x + chipBox.width).toBeLessThanOrEqual(390);
  };
  await wholeName(chips.nth(1), "empty.txt");
  await wholeName(chips.nth(0), long);
  await page.getByRole("button", { name: "Remove empty.txt" }).click();
  await sendMessage(page, "Read it");
  const sent = page.locator("[data-testid=message][data-role=user]").last();
  await wholeName(sent.getByTestId("message-attachment"), long);
  // Under its thumbnail too, where it sat beside the token count and kept about 100 px of itself.
  await wholeName(sent.getByTestId("message-image"), photo);
  await expectNoHorizontalScroll(page, "attachment chips");
});

test("a reply's header stays one line at 390 px, with a long model name: the name gives way, not the time", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  const origin = new URL(page.url()).origin;
  const model = "gpt-4o-mini-2024-07-18-long-deployment-name";
  const changed = await page.request.patch(`/api/conversations/${id}/model`, { data: { model }, headers: { origin } });
  expect(changed.ok(), await changed.text()).toBeTruthy();
  await scriptTurns(request, id, ["A question REPLY_WORDS=12"]);
  await page.reload();
  const header = page.locator("[data-testid=message][data-role=assistant] header").last();
  await expect(header).toContainText("#2");
  expect((await header.locator("time").boundingBox())!.height).toBeLessThan(20);
  expect((await header.boundingBox())!.height).toBeLessThan(30);
  await expect(header.getByTitle(model)).toBeVisible();
  await expectNoHorizontalScroll(page, "a reply with a long model name");
});

test("home screen: the manifest and its icons load without a session (browsers fetch them without cookies) and pages link them", async ({ baseURL }) => {
  const anonymous = await playwrightRequest.newContext({ baseURL: baseURL!, storageState: { cookies: [], origins: [] } });
  try {
    const signIn = await anonymous.get("/sign-in");
    const html = await signIn.text();
    const manifestHref = /<link rel="manifest" href="([^"]+)"/.exec(html)?.[1];
    expect(manifestHref, "a <link rel=manifest> on the page").toBeDefined();
    expect(html).toMatch(/<link rel="apple-touch-icon" href="\/apple-icon\.png"/);
    const response = await anonymous.get(manifestHref!);
    expect(response.status()).toBe(200);
    const manifest = (await response.json()) as { display: string; start_url: string; icons: { src: string; sizes: string; type: string }[] };
    expect(manifest).toMatchObject({ display: "standalone", start_url: "/" });
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    for (const icon of [...manifest.icons, { src: "/apple-icon.png", sizes: "180x180", type: "image/png" }]) {
      const file = await anonymous.get(icon.src);
      expect(file.status(), icon.src).toBe(200);
      expect(file.headers()["content-type"], icon.src).toContain(icon.type);
      if (icon.type === "image/png") {
        // The PNG header's width and height match what the manifest promises.
        const png = await file.body();
        expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
      }
    }
  } finally {
    await anonymous.dispose();
  }
});

test("at 390×844: an API token's name stays readable in the list (it takes its own line)", async ({ page }) => {
  await page.goto("/account");
  const name = `phone token ${Date.now()}`;
  await page.getByTestId("token-name").fill(name);
  await page.getByTestId("token-create").click();
  await expect(page.getByTestId("token-value")).toBeVisible();
  const row = page.getByTestId("token-row").filter({ hasText: name });
  const label = row.locator("span.font-medium").first();
  await expect(label).toHaveText(name);
  const box = (await label.boundingBox())!;
  // Squeezed beside the dates it used to shrink to nothing.
  expect(box.width).toBeGreaterThan(150);
  const fits = await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
  expect(fits).toBe(true);
});

test("a drawer left open on a phone is closed when the window widens, and stays closed when it narrows again", async ({ page }) => {
  await newConversation(page);
  await page.getByTestId("drawer-toggle").click();
  await expect(page.getByTestId("drawer")).toHaveAttribute("data-open", "true");
  await page.setViewportSize({ width: 1366, height: 900 });
  // The sidebar is in place, and the focus the hidden button held is on the page.
  await expect(page.getByTestId("drawer")).toBeInViewport();
  await expect(page.getByTestId("drawer-toggle")).toBeHidden();
  await expect(page.locator("#main")).toBeFocused();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("drawer")).toHaveAttribute("data-open", "false");
  await expect(page.getByTestId("drawer-backdrop")).toHaveCount(0);
  await expect(page.getByTestId("composer")).toBeInViewport();
  await page.getByTestId("composer").click();
  await expect(page.getByTestId("composer")).toBeFocused();
});
