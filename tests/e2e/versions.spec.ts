// Versions (regenerate any reply, edit a message) with the "‹ 2/3 ›" switcher, and
// Continue after Stop. The test model server's recorded requests show which branch
// the model was given.
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { chatRequestFor, MODEL_SERVER, newConversation, resetModelServer, saveTestSettings, sendAndStop, sendMessage, untilSettled } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

type Recorded = { kind?: string; body: { messages: { role: string; content: string | null }[] } };

/** What the user said in the model's chat request that ended with `question`, in order. */
async function userTurnsUpTo(request: APIRequestContext, question: string): Promise<string[]> {
  return (await chatRequestFor(request, question)).filter((m) => m.role === "user").map((m) => m.content ?? "");
}

test("regenerate a middle reply, switch between its versions, and the next turn follows the shown branch", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  // The sidebar counts what the conversation shows, hidden versions left out.
  const listedCount = page.locator(`[data-testid=conversation-item][data-id="${id}"]`).getByText(/messages$/);
  await sendMessage(page, "first");
  await sendMessage(page, "second");
  const assistants = page.locator("[data-testid=message][data-role=assistant]");
  const firstReply = assistants.first();

  // Only the regenerate's request is recorded from here: it must end with "first".
  await request.delete(`${MODEL_SERVER}/__admin/requests`);
  await firstReply.hover();
  await untilSettled(page, () => firstReply.getByTestId("regenerate-reply").click());
  // The later turn left the view with the replaced reply; the new reply shows 2/2.
  await expect(page.getByTestId("message")).toHaveCount(2);
  const switcher = page.getByTestId("version-switcher");
  await expect(switcher.getByTestId("version-label")).toHaveText("2/2");
  await expect(switcher.getByTestId("version-next")).toBeDisabled();
  expect(await userTurnsUpTo(request, "first")).toEqual(["first"]);
  await expect(listedCount).toHaveText("2 messages");

  // Back to version 1: the old branch, "second" and its reply included, is shown again.
  await untilSettled(page, () => switcher.getByTestId("version-previous").click());
  await expect(switcher.getByTestId("version-label")).toHaveText("1/2");
  await expect(page.getByTestId("message")).toHaveCount(4);
  await expect(listedCount).toHaveText("4 messages");
  await expect(page.locator("[data-testid=message][data-role=user]").last()).toContainText("second");
  await sendMessage(page, "third");
  expect(await userTurnsUpTo(request, "third")).toEqual(["first", "second", "third"]);

  // It survives a reload, and version 2 comes back as it was left.
  await page.reload();
  await expect(page.getByTestId("version-label")).toHaveText("1/2");
  await untilSettled(page, () => page.getByTestId("version-next").click());
  await expect(page.getByTestId("message")).toHaveCount(2);
  await expect(page.getByTestId("version-label")).toHaveText("2/2");
});

test("an edited message keeps its old text as a version", async ({ page }) => {
  await page.goto("/");
  await newConversation(page);
  await sendMessage(page, "alpha");
  await sendMessage(page, "beta");
  const lastUser = page.locator("[data-testid=message][data-role=user]").last();
  await lastUser.hover();
  await lastUser.getByTestId("edit-message").click();
  await page.getByTestId("edit-message-input").fill("gamma");
  await untilSettled(page, () => page.getByTestId("edit-message-save").click());
  await expect(lastUser).toContainText("gamma");
  await expect(lastUser.getByTestId("version-label")).toHaveText("2/2");
  await untilSettled(page, () => lastUser.getByTestId("version-previous").click());
  await expect(lastUser).toContainText("beta");
  await expect(lastUser.getByTestId("version-label")).toHaveText("1/2");
});

test("Continue finishes a stopped reply in place", async ({ page, request }) => {
  await page.goto("/");
  await newConversation(page);
  await sendAndStop(page, request, "Tell me a lot REPLY_WORDS=300");
  const reply = page.locator("[data-testid=message][data-role=assistant]").last();
  await expect(reply).toHaveAttribute("data-status", "stopped");
  const partial = (await reply.locator("p").first().innerText()).trim();
  await untilSettled(page, () => reply.getByTestId("continue-reply").click());
  await expect(page.locator("[data-testid=message][data-role=assistant]")).toHaveCount(1);
  await expect(reply).toHaveAttribute("data-status", "complete");
  await expect(reply.getByTestId("continue-reply")).toHaveCount(0);
  const whole = (await reply.locator("p").first().innerText()).trim();
  expect(whole.startsWith(partial)).toBe(true);
  expect(whole.length).toBeGreaterThan(partial.length);
  // The model was given the partial reply as its own last message.
  const { requests } = (await (await request.get(`${MODEL_SERVER}/__admin/requests`)).json()) as { requests: Recorded[] };
  const last = requests.filter((r) => r.kind === "chat").at(-1)!.body.messages.at(-1)!;
  expect(last.role).toBe("assistant");
  expect(partial.startsWith((last.content ?? "").trim().slice(0, 20))).toBe(true);
});
