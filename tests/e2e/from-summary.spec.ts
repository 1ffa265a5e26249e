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
  // A collapsed block shows its title only: the text is read from the opened summary.
  await block.getByTestId("compaction-summary-more").click();
  const summaryText = (await block.getByTestId("compaction-summary").innerText()).trim();

  await block.getByTestId("continue-from-summary").click();
  await expect(page).not.toHaveURL(new RegExp(`/c/${sourceId}$`));
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("conversation-heading")).toHaveText("From: Harbour plans");
  const link = page.getByTestId("conversation-source");
  await expect(link).toHaveText("Continued from Harbour plans");
  await expect(link).toHaveAttribute("href", `/c/${sourceId}`);
  // The summary is the conversation's context, not an unanswered "You #1": no Retry box.
  const context = page.locator("[data-testid=message][data-role=system]").first();
  await expect(context).toContainText("Continued from the conversation “Harbour plans”");
  await expect(context).toHaveAttribute("aria-label", "Context message #1");
  await expect(page.locator("[data-testid=message][data-role=user]")).toHaveCount(0);
  await expect(page.getByTestId("retry-button")).toHaveCount(0);

  await sendMessage(page, "How many people are in the crew?");
  const sent = await chatRequestFor(request, "How many people are in the crew?");
  // Whatever system prompt leads, the model reads the summary, then the new question.
  expect(sent.at(-1)).toMatchObject({ role: "user", content: "How many people are in the crew?" });
  const carried = sent.find((m) => m.role === "system" && m.content?.includes("Continued from the conversation “Harbour plans”"));
  expect(carried?.content).toContain(summaryText.split("\n")[0]!.slice(0, 40));
  expect(sent.filter((m) => m.role === "user")).toHaveLength(1);
  await expect(page.locator("[data-testid=message][data-role=assistant]")).toHaveCount(1);

  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/c/${sourceId}$`));
});
