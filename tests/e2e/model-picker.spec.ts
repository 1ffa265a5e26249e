import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import {
  MODEL_SERVER,
  meterPercent,
  newConversation,
  resetModelServer,
  saveTestSettings,
  screenshotPath,
  scriptTurns,
  sendMessage,
  seriousAxeViolations,
  SMALL_WINDOW,
} from "./support/helpers";

// The model server lists gpt-4o among its models; the small window is gpt-4o-mini's.
const LARGE_WINDOW = { ...SMALL_WINDOW, contextWindowOverrides: { "gpt-4o-mini": 2000, "gpt-4o": 64_000 } };

// Scripted turns, a real turn and an axe run on a shared 2-core machine.
test.setTimeout(240_000);

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, LARGE_WINDOW);
});
test.afterEach(async ({ request }) => {
  // The e2e database outlives the spec: later specs' conversations start without defaults.
  expect((await request.put("/api/settings/instructions", { data: { instructions: "", temperature: null } })).ok()).toBeTruthy();
});

type ChatBody = { model: string; temperature?: number; messages: { role: string; content: string | null }[] };

/** The body of the chat request the model server received for `question`, from its own log. */
async function chatBodyFor(request: APIRequestContext, question: string): Promise<ChatBody> {
  let found: ChatBody | undefined;
  await expect
    .poll(async () => {
      const { requests } = (await (await request.get(`${MODEL_SERVER}/__admin/requests`)).json()) as { requests: { kind?: string; body: ChatBody }[] };
      found = requests.filter((r) => r.kind === "chat" && r.body.messages.at(-1)?.content === question).at(-1)?.body;
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

async function openPicker(page: Page) {
  await page.getByTestId("model-picker").click();
  const dialog = page.getByTestId("model-settings-dialog");
  await expect(dialog.getByLabel("Model", { exact: true })).toBeVisible();
  return dialog;
}

async function conversationWithHistory(page: Page, request: APIRequestContext): Promise<string> {
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, ["Turn 1: FACT harbour=north REPLY_WORDS=60", "Turn 2: FACT ships=12 REPLY_WORDS=60"]);
  await page.reload();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  return id;
}

test.describe("at 1366×900", () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test("pick a model from the list, set instructions and a temperature: the meter re-measures at once, the server receives them", async ({ page, request }) => {
    await conversationWithHistory(page, request);
    await expect(page.getByTestId("model-name")).toHaveText("gpt-4o-mini");
    const before = await meterPercent(page);
    expect(before).toBeGreaterThan(10);

    const dialog = await openPicker(page);
    const select = dialog.getByLabel("Model", { exact: true });
    // The server's models are offered.
    await expect(select.locator("option", { hasText: /^gpt-4o$/ })).toHaveCount(1);
    await select.selectOption("gpt-4o");
    await dialog.getByLabel("Instructions").fill("Answer like a harbour master.");
    await dialog.getByLabel("Temperature").fill("0.4");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("model-picker") });
    await dialog.getByTestId("model-settings-save").click();
    await expect(dialog.getByTestId("model-settings-status")).toContainText("Saved");
    // A 64k window instead of 2,000 tokens: the share drops before any turn.
    await expect.poll(() => meterPercent(page)).toBeLessThan(before / 5);
    await expect(page.getByTestId("model-name")).toHaveText("gpt-4o");
    await dialog.getByRole("button", { name: "Close" }).first().click();

    await sendMessage(page, "Which harbour was it?");
    const body = await chatBodyFor(request, "Which harbour was it?");
    expect(body.model).toBe("gpt-4o");
    expect(body.temperature).toBe(0.4);
    expect(body.messages[0]).toEqual({ role: "system", content: "Answer like a harbour master." });

    // The instructions are counted: longer ones move the meter.
    const withShort = await meterPercent(page);
    await openPicker(page);
    await dialog.getByLabel("Instructions").fill("Answer like a harbour master. ".repeat(400));
    await dialog.getByTestId("model-settings-save").click();
    await expect(dialog.getByTestId("model-settings-status")).toContainText("Saved");
    await expect.poll(() => meterPercent(page)).toBeGreaterThan(withShort);
  });

  test("a model the server does not list can be typed; bad input is refused with a clear message and nothing changes", async ({ page, request }) => {
    await conversationWithHistory(page, request);
    const dialog = await openPicker(page);
    await dialog.getByLabel("Temperature").fill("5");
    await dialog.getByTestId("model-settings-save").click();
    await expect(dialog.getByTestId("model-settings-temperature-error")).toContainText("from 0 to 2");
    await expect(dialog.getByLabel("Temperature")).toHaveAttribute("aria-describedby", /error/);
    await dialog.getByLabel("Temperature").fill("");

    await dialog.getByLabel("Model", { exact: true }).selectOption({ label: "Another model (type its name)…" });
    await dialog.getByLabel("Model name, as the server knows it").fill("   ");
    await dialog.getByTestId("model-settings-save").click();
    await expect(dialog.getByTestId("model-settings-model-error")).toBeVisible();
    await expect(page.getByTestId("model-name")).toHaveText("gpt-4o-mini");

    await dialog.getByLabel("Model name, as the server knows it").fill("m".repeat(201));
    // Past the form's own checks: the server's message is shown.
    await dialog.getByTestId("model-settings-save").click();
    await expect(dialog.getByTestId("model-settings-status")).toContainText("at most 200 characters");
    await expect(page.getByTestId("model-name")).toHaveText("gpt-4o-mini");

    await dialog.getByLabel("Model name, as the server knows it").fill("gpt-4o-2024-08-06");
    await dialog.getByTestId("model-settings-save").click();
    await expect(dialog.getByTestId("model-settings-status")).toContainText("Saved");
    await expect(page.getByTestId("model-name")).toHaveText("gpt-4o-2024-08-06");
  });

  test("default instructions on the settings page: a new conversation starts with them", async ({ page }) => {
    await page.goto("/settings");
    const defaults = page.getByTestId("chat-defaults");
    await defaults.getByLabel("Instructions for new conversations").fill("Always answer in haiku.");
    await defaults.getByLabel("Reply temperature for new conversations").fill("3");
    await defaults.getByTestId("chat-defaults-save").click();
    await expect(defaults.getByTestId("chat-defaults-temperature-error")).toContainText("from 0 to 2");
    await defaults.getByLabel("Reply temperature for new conversations").fill("0.2");
    await defaults.getByTestId("chat-defaults-save").click();
    await expect(defaults.getByTestId("chat-defaults-status")).toContainText("Saved");
    await page.screenshot({ path: screenshotPath("default-instructions") });

    await newConversation(page);
    const dialog = await openPicker(page);
    await expect(dialog.getByLabel("Instructions")).toHaveValue("Always answer in haiku.");
    await expect(dialog.getByLabel("Temperature")).toHaveValue("0.2");
  });
});

test.describe("at 390×844", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the picker opens from the header, fits the screen, and a model from the list re-measures the meter", async ({ page, request }) => {
    await conversationWithHistory(page, request);
    const before = await meterPercent(page);
    const dialog = await openPicker(page);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await dialog.getByLabel("Model", { exact: true }).selectOption("gpt-4o");
    await dialog.getByLabel("Instructions").fill("Short answers on the phone.");
    await page.screenshot({ path: screenshotPath("model-picker-phone") });
    await dialog.getByTestId("model-settings-save").click();
    await expect(dialog.getByTestId("model-settings-status")).toContainText("Saved");
    await expect.poll(() => meterPercent(page)).toBeLessThan(before / 5);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("model-name")).toHaveText("gpt-4o");
  });
});
