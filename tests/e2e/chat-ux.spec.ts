// The chat as people expect it (issue 14): typed text is never lost, text that looks
// like HTML is shown as written, one turn at a time per conversation with every open
// tab kept up to date.
import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN_STATE } from "./support/accounts";
import { expect, test } from "./support/fixtures";
import { MODEL_SERVER, newConversation, resetModelServer, saveTestSettings, scriptTurns, sendMessage, untilSettled } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

const messages = (page: Page) => page.getByTestId("message");
const conversationCount = async (request: APIRequestContext) =>
  ((await (await request.get("/api/conversations")).json()) as { conversations: unknown[] }).conversations.length;

test("a message over the length limit is held in the composer with a visible counter", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  const composer = page.getByTestId("composer");
  const pasted = "x".repeat(120_000);
  await composer.fill(pasted);
  await expect(page.getByTestId("composer-length")).toHaveText("120,000 / 100,000 characters: 20,000 too many");
  await expect(page.getByTestId("composer-length")).toHaveAttribute("data-over", "true");
  await expect(page.getByTestId("send-button")).toBeDisabled();
  await composer.press("Enter");
  await expect(composer).toHaveValue(pasted);
  await expect(messages(page)).toHaveCount(0);

  // Cut down to the limit, it goes: the box empties once the server stored it.
  await untilSettled(page, async () => {
    await composer.fill("y".repeat(5_000));
    await expect(page.getByTestId("composer-length")).toHaveText("5,000 / 100,000");
    await composer.press("Enter");
  });
  await expect(composer).toHaveValue("");
  await expect(messages(page).first()).toHaveAttribute("data-role", "user");
});

test("a double-click on Send sends once and the reply comes: its second click, landing on Stop, does not stop the turn", async ({ page, request }) => {
  // Slow enough that the reply is still streaming when the second click lands.
  await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 40, tokensPerChunk: 1 } });
  try {
    await page.goto("/");
    await newConversation(page);
    await page.getByTestId("composer").fill("Double-clicked question");
    // As a person double-clicks: the second press, where Send was, comes once the page has
    // put Stop there (a browser counts it as the double-click's second: detail 2).
    const box = (await page.getByTestId("send-button").boundingBox())!;
    await untilSettled(page, async () => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.up();
      await expect(page.getByTestId("stop-button")).toBeVisible();
      await page.mouse.down({ clickCount: 2 });
      await page.mouse.up({ clickCount: 2 });
    });
    await expect(page.locator("[data-testid=message][data-role=user]")).toHaveCount(1);
    const reply = page.locator("[data-testid=message][data-role=assistant]");
    await expect(reply).toHaveCount(1);
    // The whole reply, not one stopped at the second click.
    await expect(reply.getByTestId("message-status")).toHaveCount(0);
    await expect(page.getByTestId("retry-row")).toHaveCount(0);
    // A single click on Stop, at once, still stops.
    const stop = page.getByTestId("stop-button");
    await untilSettled(page, async () => {
      await page.getByTestId("composer").fill("Now stop this one REPLY_WORDS=300");
      await page.getByTestId("composer").press("Enter");
      await expect(page.getByTestId("streaming-reply")).not.toContainText(/Thinking|Waiting for the model/);
      await stop.click();
    });
    await expect(stop).toHaveCount(0);
    await expect(page.locator("[data-testid=message][data-role=assistant]").last().getByTestId("message-status")).toHaveText("stopped");
    await expect(page.locator("[data-testid=message][data-role=user]")).toHaveCount(2);
  } finally {
    await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 0, tokensPerChunk: 3 } });
  }
});

test("a send into a conversation deleted meanwhile keeps the text and says why", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  expect((await request.delete(`/api/conversations/${id}`)).status()).toBe(204);
  const composer = page.getByTestId("composer");
  // Sent before the tab's next poll notices the deletion: the server refuses it.
  await composer.fill("My carefully written question");
  await composer.press("Enter");
  await expect(page.getByTestId("composer-hint")).toHaveText("This conversation was deleted.");
  await expect(page.getByTestId("conversation-deleted")).toBeVisible();
  await expect(composer).toHaveValue("My carefully written question");
});

test("text that looks like HTML is shown as written, and stays inert", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  const text = "use List<String> or Map<K, V>. Wrap it in a <div>";
  await sendMessage(page, text);
  const mine = page.locator("[data-testid=message][data-role=user]").first();
  await expect(mine.locator(".markdown")).toHaveText(text);

  await sendMessage(page, '<img src=x onerror="document.title=\'pwned\'"> <script>document.title="pwned"</script>');
  const second = page.locator("[data-testid=message][data-role=user]").nth(1);
  await expect(second.locator(".markdown")).toContainText('<img src=x onerror="document.title=\'pwned\'">');
  await expect(second.locator("img, script")).toHaveCount(0);
  expect(await page.title()).not.toBe("pwned");
});

test("two tabs: one turn at a time, and each tab sees the other's messages without a reload", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  await page.goto("/");
  const id = await newConversation(page);
  const other = await browser.newContext({ storageState: ADMIN_STATE });
  const second = await other.newPage();
  try {
    await second.goto(`/c/${id}`);
    await expect(second.getByTestId("conversation")).toHaveAttribute("data-ready", "true");

    // A slow reply in the first tab.
    await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 150, tokensPerChunk: 1 } });
    await page.getByTestId("composer").fill("First tab asks REPLY_WORDS=150");
    await page.getByTestId("composer").press("Enter");
    await expect(page.getByTestId("streaming-reply")).toBeVisible();

    // The second tab is told, and cannot start a turn that would interleave.
    await expect(second.getByTestId("composer-hint")).toContainText("A reply is still being written", { timeout: 20_000 });
    await second.getByTestId("composer").fill("Second tab asks");
    await expect(second.getByTestId("send-button")).toBeDisabled();
    // ...and draws the reply while the first tab's turn writes it (the turn's live stream).
    const live = second.getByTestId("streaming-reply");
    await expect.poll(async () => ((await live.count()) > 0 ? (await live.innerText()).length : 0), { timeout: 20_000 }).toBeGreaterThan(80);
    await expect(page.getByTestId("streaming-reply")).toBeVisible();
    // Whatever the client: the server refuses a second turn with a clear 409.
    const refused = await request.post(`/api/conversations/${id}/messages`, { data: { content: "API asks meanwhile" } });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("A reply is still being written in this conversation");

    // When the reply is done, the second tab shows it without a reload, and may send.
    await expect(page.getByTestId("send-button")).toBeVisible({ timeout: 60_000 });
    await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 0, tokensPerChunk: 3 } });
    await expect(messages(second)).toHaveCount(2, { timeout: 15_000 });
    await expect(second.getByTestId("composer-hint")).toHaveCount(0);
    await untilSettled(second, () => second.getByTestId("send-button").click());
    await expect(second.getByTestId("composer")).toHaveValue("");

    // ...and the first tab picks the second tab's turn up.
    await expect(messages(page)).toHaveCount(4, { timeout: 15_000 });
    await expect(messages(page).nth(2)).toContainText("Second tab asks");
    const order = await messages(page).evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-role")));
    expect(order).toEqual(["user", "assistant", "user", "assistant"]);
  } finally {
    await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 0, tokensPerChunk: 3 } });
    await other.close();
  }
});

test("Back and Forward show the conversation as it is now, and a deleted one as deleted", async ({ page, request }) => {
  const create = async () => ((await (await request.post("/api/conversations", { data: {} })).json()) as { conversation: { id: string } }).conversation.id;
  const first = await create();
  const second = await create();
  await page.goto(`/c/${second}`);
  // Client-side navigations from here on, so Back and Forward use the router's cache.
  await page.getByTestId("conversation-list").locator(`a[href="/c/${first}"]`).click();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-id", first);
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  await sendMessage(page, "Hello from the first conversation");
  await page.getByTestId("conversation-list").locator(`a[href="/c/${second}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/c/${second}$`));
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-id", second);
  // Meanwhile (another tab, the API) the first conversation grows.
  await scriptTurns(request, first, ["Written elsewhere"]);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/c/${first}$`));
  await expect(messages(page)).toHaveCount(4);
  await expect(messages(page).nth(2)).toContainText("Written elsewhere");

  await page.goForward();
  expect((await request.delete(`/api/conversations/${first}`)).status()).toBe(204);
  await page.goBack();
  await expect(page.getByTestId("conversation-deleted")).toBeVisible();
  await expect(page.locator("main").getByText("Hello from the first conversation")).toHaveCount(0);
  await expect(page).toHaveTitle("Deleted conversation · Strata");
  await expect(page.getByTestId("conversation-list").locator(`a[href="/c/${first}"]`)).toHaveCount(0);
});

test("the home page has a composer: the first message starts the conversation, and nothing is stored before it", async ({ page, request }) => {
  const count = () => conversationCount(request);
  const before = await count();
  await page.goto("/");
  const composer = page.getByTestId("home-composer").getByTestId("composer");
  await expect(composer).toBeFocused();
  await composer.fill("Started from the home page");
  // Typing stores nothing.
  expect(await count()).toBe(before);
  // What the box holds at every frame until the conversation's page replaces it.
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { homeBoxValues: seen });
    const record = () => {
      if (location.pathname !== "/") return;
      const box = document.querySelector<HTMLTextAreaElement>("[data-testid=home-composer] [data-testid=composer]");
      if (box) seen.push(box.value);
      requestAnimationFrame(record);
    };
    record();
  });
  await composer.press("Enter");
  await page.waitForURL(/\/c\/[0-9a-f-]+$/);
  // The text never left the box before the conversation showed it.
  const seen = await page.evaluate(() => (window as unknown as { homeBoxValues: string[] }).homeBoxValues);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((value) => value !== "Started from the home page")).toEqual([]);
  const conversation = page.getByTestId("conversation");
  await expect(conversation).toHaveAttribute("data-ready", "true");
  await expect(messages(page).first()).toContainText("Started from the home page");
  await expect(messages(page)).toHaveCount(2);
  await expect(messages(page).nth(1)).toHaveAttribute("data-role", "assistant");
  await expect(page.getByTestId("composer")).toHaveValue("");
  expect(await count()).toBe(before + 1);
  // Sent once, however the page rendered.
  await page.reload();
  await expect(messages(page)).toHaveCount(2);
});

test("New opens the home page's composer and stores no empty conversation", async ({ page, request }) => {
  await newConversation(page);
  const before = await conversationCount(request);
  await page.getByTestId("new-conversation").click();
  await page.waitForURL((url) => url.pathname === "/");
  const composer = page.getByTestId("home-composer").getByTestId("composer");
  await expect(composer).toBeFocused();
  // Pressed again on the home page, it brings the focus back to the composer.
  await page.getByTestId("sidebar-search").focus();
  await page.getByTestId("new-conversation").click();
  await expect(composer).toBeFocused();
  expect(await conversationCount(request)).toBe(before);
});

test("the scroll position survives a reload and Back", async ({ page, request }) => {
  const id = await newConversation(page);
  await scriptTurns(request, id, Array.from({ length: 14 }, (_, turn) => `Question ${turn + 1} REPLY_WORDS=60`));
  await page.reload();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  // The first message whose bottom is below the timeline's top edge.
  const topSeq = () =>
    page.evaluate(() => {
      const top = document.querySelector('[data-testid="timeline"]')!.getBoundingClientRect().top;
      const message = [...document.querySelectorAll<HTMLElement>('[data-testid="message"]')].find(
        (element) => element.getBoundingClientRect().bottom > top + 1,
      );
      return message ? Number(message.dataset.seq) : null;
    });
  const remembered = () => page.evaluate((key) => sessionStorage.getItem(key), `strata:scroll:${id}`);
  // A reload opens at the newest messages until the reader scrolls up.
  await expect.poll(topSeq).toBeGreaterThan(20);
  await page.getByTestId("timeline").evaluate((element) => element.scrollTo({ top: element.scrollHeight * 0.35 }));
  await expect.poll(remembered).not.toBeNull();
  const seq = await topSeq();
  expect(seq).toBeGreaterThan(1);
  expect(seq).toBeLessThan(20);

  await page.reload();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  await expect.poll(topSeq).toBe(seq);

  await page.getByTestId("new-conversation").click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.goBack();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  await expect.poll(topSeq).toBe(seq);

  // Back at the bottom, the next opening follows the newest messages again.
  await page.getByTestId("timeline").evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect.poll(remembered).toBeNull();
});
