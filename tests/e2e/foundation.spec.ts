import { expect, test } from "./support/fixtures";
import { newConversation, resetModelServer, sendMessage, saveTestSettings, MODEL_SERVER } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

test("(a) a conversation streams replies and survives a reload", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  await expect(page.getByTestId("conversation-item").filter({ has: page.locator(`a[href="/c/${id}"]`) })).toBeVisible();

  // Slow the model down so the reply is seen arriving word by word.
  await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 60, tokensPerChunk: 1 } });
  await page.getByTestId("composer").fill("Hello Strata, please remember FACT color=teal");
  await page.getByTestId("composer").press("Enter");
  // Stop is offered from the moment the message is sent, so it is checked first: on a
  // busy machine the whole reply may have arrived by the time the text is seen.
  await expect(page.getByTestId("stop-button")).toBeVisible();
  const streaming = page.getByTestId("streaming-reply");
  await expect(streaming).toContainText("Demo model");
  await expect(streaming).toHaveCount(0, { timeout: 20_000 });
  await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 0, tokensPerChunk: 3 } });
  await expect(page.getByTestId("send-button")).toBeVisible();
  // The server named the conversation after its first message; the sidebar shows it.
  await expect(page.getByTestId("conversation-item").filter({ has: page.locator(`a[href="/c/${id}"]`) })).toContainText(
    "Hello Strata, please remember FACT color=teal",
  );

  await sendMessage(page, "A second message with a list:\n\n- one\n- two");

  const messages = page.getByTestId("message");
  await expect(messages).toHaveCount(4);
  const roles = await messages.evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute("data-role")}:${n.getAttribute("data-seq")}`));
  expect(roles).toEqual(["user:1", "assistant:2", "user:3", "assistant:4"]);
  await expect(messages.nth(1)).toContainText("you said");
  // Markdown is rendered (not shown as raw asterisks) and sanitized.
  await expect(messages.nth(1).locator("strong").first()).toHaveText("Demo model");

  await page.reload();
  await expect(page.getByTestId("message")).toHaveCount(4);
  await expect(page.locator('[data-testid=message][data-role=user][data-seq="1"]')).toContainText("FACT color=teal");
  await expect(page.locator('[data-testid=message][data-role=assistant][data-seq="4"]')).toContainText("you said");
});

test("(f) the context meter moves with the conversation", async ({ page, request }) => {
  await saveTestSettings(request, { contextWindowOverrides: { "gpt-4o-mini": 4000 }, hardLimitReserve: 200, preemptiveThreshold: 0 });
  await page.goto("/");
  await newConversation(page);
  const meter = page.getByTestId("context-meter");
  await expect(meter).toBeVisible();
  const before = Number(await meter.getAttribute("data-percent"));
  await sendMessage(page, "Fill some room please REPLY_WORDS=200");
  await expect.poll(async () => Number(await meter.getAttribute("data-percent"))).toBeGreaterThan(before);
  const after = Number(await meter.getAttribute("data-percent"));
  expect(after).toBeGreaterThanOrEqual(5);

  // The popover explains the numbers.
  await meter.hover();
  await expect(page.getByTestId("context-meter-details")).toContainText("of 4,000 tokens");
  await expect(page.getByTestId("context-meter-details")).toContainText("Auto compression at");
});
