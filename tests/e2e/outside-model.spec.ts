// The app in the browser against a model server that shares nothing with it: its own
// token count (it refuses any request over its window), its own terse summaries.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { signedUpOn } from "./support/accounts";
import { newConversation, OUTSIDE_APP, OUTSIDE_MODEL, saveTestSettings, scriptTurns, sendMessage } from "./support/helpers";

type Recorded = { kind: string; promptTokens: number; status: number; body: { messages: { content?: string | null }[] } };

test("a long chat at a 4k window with default settings: summaries, no truncation, nothing over the window", async ({ browser }) => {
  // The second app instance has its own database: its own first account.
  const { page, request, context } = await signedUpOn(browser, OUTSIDE_APP);
  expect((await request.post(`${OUTSIDE_MODEL}/admin/reset`)).ok()).toBeTruthy();
  expect((await request.post(`${OUTSIDE_MODEL}/admin/config`, { data: { contextWindow: 4096, summaryMode: "terse" } })).ok()).toBeTruthy();
  await saveTestSettings(request, { contextWindowOverrides: { "outside-small": 4096 } });
  await page.goto("/");
  const id = await newConversation(page);
  const facts = Array.from({ length: 6 }, (_, i) => `Project Falcon-${i} uses port ${4000 + i * 7} in production.`);
  const turns = Array.from({ length: 24 }, (_, turn) => `we should check the plan again later today. <<reply 120>>${turn % 4 === 0 ? `\n${facts[turn / 4]}` : ""}`);
  await scriptTurns(request, id, turns);
  await page.reload();
  await sendMessage(page, "what do we know so far? <<reply 40>>");

  // The compactions stand where their messages were: at the top of the timeline.
  await page.getByTestId("timeline").evaluate((element) => element.scrollTo(0, 0));
  await expect(page.locator("[data-testid=compaction-block]").first()).toBeVisible();
  const stats = (await (await request.get(`${OUTSIDE_MODEL}/admin/stats`)).json()) as { overWindow: number; summary: number };
  expect(stats.overWindow).toBe(0);
  expect(stats.summary).toBeGreaterThan(0);
  const { attempts } = (await (await request.get(`/api/conversations/${id}/attempts`)).json()) as { attempts: { trigger: string }[] };
  expect(attempts.filter((a) => a.trigger === "hard_limit")).toEqual([]);

  // Every fact an active summary kept is in front of the model.
  const requests = (await (await request.get(`${OUTSIDE_MODEL}/admin/requests`)).json()) as Recorded[];
  const last = requests.filter((r) => r.kind === "chat").at(-1)!;
  const sent = last.body.messages.map((m) => m.content ?? "").join("\n");
  const timeline = (await (await request.get(`/api/conversations/${id}/messages?limit=200`)).json()) as { items: { type: string; compaction?: { summary: string } }[] };
  const summaries = timeline.items.flatMap((item) => (item.compaction ? [item.compaction.summary] : []));
  expect(summaries.length).toBeGreaterThan(0);
  for (const fact of facts) {
    const probe = fact.slice(0, fact.indexOf(" in production"));
    if (summaries.some((summary) => summary.includes(probe))) expect(sent).toContain(probe);
  }
  for (const r of requests) expect(r.promptTokens).toBeLessThanOrEqual(4096);
  await context.close();
});

test("a model that thinks in its reply: the thinking folded above the answer, never in it", async ({ browser }) => {
  const { page, request, context } = await signedUpOn(browser, OUTSIDE_APP);
  expect((await request.post(`${OUTSIDE_MODEL}/admin/reset`)).ok()).toBeTruthy();
  expect((await request.post(`${OUTSIDE_MODEL}/admin/config`, { data: { thinking: "tags" } })).ok()).toBeTruthy();
  try {
    await page.goto("/");
    await newConversation(page);
    await sendMessage(page, "Which harbour do we sail from? <<reply 15>>");
    const reply = page.getByTestId("message").filter({ has: page.getByTestId("reasoning") });
    await expect(reply).toHaveCount(1);
    const thinking = reply.getByTestId("reasoning");
    // Folded: its label shows, its text does not, and the answer reads without it.
    await expect(thinking.locator("summary")).toHaveText("Thought process");
    await expect(thinking.getByTestId("reasoning-text")).toBeHidden();
    await expect(reply).not.toContainText("private thought", { useInnerText: true });
    await expect(reply).not.toContainText("think>");
    await expect(reply).toContainText(/[a-z]+ [a-z]+ [a-z]+/, { useInnerText: true });
    await thinking.locator("summary").click();
    await expect(thinking.getByTestId("reasoning-text")).toHaveText(/^Let me weigh this before I answer \(private thought \d+\)\.$/);
    await reply.screenshot({ path: test.info().outputPath("thinking.png") });
  } finally {
    await request.post(`${OUTSIDE_MODEL}/admin/config`, { data: { thinking: "none" } });
    await context.close();
  }
});

/**
 * Signed up on the app served by the outside model, which thinks in its own field and then
 * pauses 30 s before its answer (a turn can be watched and stopped while it thinks).
 */
async function whileTheModelThinks(browser: Browser, run: (session: Awaited<ReturnType<typeof signedUpOn>>) => Promise<void>): Promise<void> {
  const session = await signedUpOn(browser, OUTSIDE_APP);
  const { request, context } = session;
  expect((await request.post(`${OUTSIDE_MODEL}/admin/reset`)).ok()).toBeTruthy();
  expect((await request.post(`${OUTSIDE_MODEL}/admin/config`, { data: { thinking: "field", thinkingPauseMs: 30_000 } })).ok()).toBeTruthy();
  try {
    await run(session);
  } finally {
    await request.post(`${OUTSIDE_MODEL}/admin/config`, { data: { thinking: "none", thinkingPauseMs: 0 } });
    await context.close();
  }
}

async function askWhichHarbour(page: Page): Promise<void> {
  await page.getByTestId("composer").fill("Which harbour do we sail from? <<reply 15>>");
  await page.getByTestId("composer").press("Enter");
}

test("a reply stopped while its model thinks keeps the thinking, and Continue answers after it", async ({ browser }) => {
  await whileTheModelThinks(browser, async ({ page, request }) => {
    await page.goto("/");
    await newConversation(page);
    await askWhichHarbour(page);
    // The thought has streamed (its sentence ends so) and no answer has: stop.
    await page.getByTestId("reasoning").locator("summary").click();
    await expect(page.getByTestId("reasoning-text")).toHaveText(/\(private thought \d+\)\.$/);
    await page.getByTestId("stop-button").click();
    const reply = page.getByTestId("message").filter({ has: page.getByTestId("reasoning") });
    await expect(reply).toHaveAttribute("data-status", "stopped");
    await expect(reply.getByTestId("stopped-before-answer")).toHaveText("Stopped before the answer began.");
    await reply.getByTestId("reasoning").locator("summary").click();
    await expect(reply.getByTestId("reasoning-text")).toHaveText(/^Let me weigh this before I answer \(private thought \d+\)\.$/);

    expect((await request.post(`${OUTSIDE_MODEL}/admin/config`, { data: { thinkingPauseMs: 0 } })).ok()).toBeTruthy();
    await reply.getByTestId("continue-reply").click();
    await expect(reply).toHaveAttribute("data-status", "complete");
    await expect(reply.getByTestId("stopped-before-answer")).toHaveCount(0);
    await expect(reply).toContainText(/[a-z]+ [a-z]+ [a-z]+/, { useInnerText: true });
    await expect(reply.getByTestId("reasoning")).toHaveCount(1);
  });
});

test("another tab of the conversation shows the model's thinking while it is written", async ({ browser }) => {
  await whileTheModelThinks(browser, async ({ page, context }) => {
    await page.goto("/");
    const id = await newConversation(page);
    const second = await context.newPage();
    await second.goto(`/c/${id}`);
    await expect(second.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
    await askWhichHarbour(page);
    // The second tab draws the turn from its live stream: the thinking, while no answer has come.
    const live = second.getByTestId("streaming-reply");
    await expect(live.getByTestId("reasoning").locator("summary")).toHaveText("Thinking…", { timeout: 20_000 });
    await live.getByTestId("reasoning").locator("summary").click();
    await expect(live.getByTestId("reasoning-text")).toHaveText(/^Let me weigh this before I answer \(private thought \d+\)\.$/);
    await page.getByTestId("stop-button").click();
    await expect(second.getByTestId("stopped-before-answer")).toBeVisible({ timeout: 15_000 });
  });
});
