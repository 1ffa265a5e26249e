import { expect, test } from "./support/fixtures";
import { MODEL_SERVER, newConversation, resetModelServer, saveTestSettings, sendMessage, untilSettled } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

test("pin, edit and regenerate, delete the last turn, stop a reply", async ({ page, request }) => {
  await page.goto("/");
  await newConversation(page);
  await sendMessage(page, "first FACT a=1");
  await sendMessage(page, "second message");
  const bySeq = (seq: number) => page.locator(`[data-testid=message][data-seq="${seq}"]`);

  // Pin survives a reload.
  await bySeq(1).hover();
  await bySeq(1).getByTestId("pin-toggle").click();
  await expect(bySeq(1).getByTestId("pin-toggle")).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(bySeq(1).getByTestId("pin-toggle")).toHaveAttribute("aria-pressed", "true");
  await expect(bySeq(1)).toContainText("pinned");

  // Edit a past message: the turn is regenerated from there.
  await bySeq(3).hover();
  await bySeq(3).getByTestId("edit-message").click();
  await page.getByTestId("edit-message-input").fill("second message, edited");
  await untilSettled(page, () => page.getByTestId("edit-message-save").click());
  const users = page.locator("[data-testid=message][data-role=user]");
  await expect(users).toHaveCount(2);
  await expect(users.last()).toContainText("second message, edited");
  await expect(page.locator("[data-testid=message][data-role=assistant]").last()).toContainText("edited");

  // Delete the last turn (with confirmation).
  await page.getByTestId("delete-last-turn").click();
  await untilSettled(page, () => page.getByTestId("confirm-delete-last-turn").click());
  await expect(users).toHaveCount(1);
  await expect(page.getByTestId("message")).toHaveCount(2);

  // Stop a slow reply: the partial text is kept, marked stopped.
  await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 150, tokensPerChunk: 1 } });
  await untilSettled(page, async () => {
    await page.getByTestId("composer").fill("Tell me a lot REPLY_WORDS=300");
    await page.getByTestId("composer").press("Enter");
    // Stop only once text has streamed: before that there is nothing to keep.
    await expect(page.getByTestId("streaming-reply")).not.toContainText(/Thinking|Waiting for the model/);
    await page.getByTestId("stop-button").click();
  });
  await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 0, tokensPerChunk: 3 } });
  const stopped = page.locator("[data-testid=message][data-role=assistant]").last();
  await expect(stopped).toHaveAttribute("data-status", "stopped");
  await expect(stopped.getByTestId("message-status")).toHaveText("stopped");
  await expect(page.getByTestId("send-button")).toBeVisible();
});
