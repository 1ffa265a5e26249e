import { expect, test } from "./support/fixtures";
import { chatRequestFor, newConversation, resetModelServer, saveTestSettings, scriptTurns, sendMessage, untilSettled } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  // Few recent messages kept, so "Compress now" has something to summarize.
  await saveTestSettings(request, { keepRecentCount: 2, threshold: 0.95, maxSummaryTokensPerLevel: 3000 });
});

test("New conversation from this summary: lands in a linked conversation that starts from the summary", async ({ page, request }) => {
  await page.goto("/");
  const sourceId = await newConversation(page);
  expect((await request.patch(`/api/conversations/${sourceId}`, { data: { title: "Harbour plans" } })).ok()).toBeTruthy();
  await scriptTurns(request, sourceId, ["The boat is called Albatross.", "It sails on Fridays.", "The crew is four people.", "The harbour is Porto."]);
  await page.reload();
  await page.getByTestId("compress-now").click();
  await untilSettled(page, () => page.getByTestId("compact-run").click());
  const block = page.getByTestId("compaction-block").first();
  await expect(block).toBeVisible();
  const summaryText = (await block.getByTestId("compaction-summary").innerText()).trim();

  await block.getByTestId("continue-from-summary").click();
  await expect(page).not.toHaveURL(new RegExp(`/c/${sourceId}$`));
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("conversation-heading")).toHaveText("From: Harbour plans");
  const link = page.getByTestId("conversation-source");
  await expect(link).toHaveText("Continued from Harbour plans");
  await expect(link).toHaveAttribute("href", `/c/${sourceId}`);
  const first = page.locator("[data-testid=message][data-role=user]").first();
  await expect(first).toContainText("Continued from the conversation “Harbour plans”");

  await sendMessage(page, "How many people are in the crew?");
  const sent = await chatRequestFor(request, "How many people are in the crew?");
  // Whatever system prompt leads, the model reads the summary, then the new question.
  const conversational = sent.filter((m) => m.role !== "system");
  expect(conversational.map((m) => m.role)).toEqual(["user", "user"]);
  expect(conversational[0]!.content).toContain("Continued from the conversation “Harbour plans”");
  expect(conversational[0]!.content).toContain(summaryText.split("\n")[0]!.slice(0, 40));
  expect(conversational[1]!.content).toBe("How many people are in the crew?");
  await expect(page.locator("[data-testid=message][data-role=assistant]")).toHaveCount(1);

  await link.click();
  await expect(page).toHaveURL(new RegExp(`/c/${sourceId}$`));
});
