// What a conversation cost, in the browser, against the outside model (which reports
// its own usage, cached tokens included): the admin sets a price on /admin, and the
// figures in the chat header and on /account are that price times the server's counts.
import { expect, test } from "@playwright/test";
import pg from "pg";
import { signedUpOn } from "./support/accounts";
import { newConversation, OUTSIDE_APP, OUTSIDE_MODEL, saveTestSettings, scriptTurns, sendMessage } from "./support/helpers";

type Recorded = { kind: string; status: number; promptTokens: number; cachedTokens: number; reply?: { completionTokens: number } };
const PRICE = { input: 3, cached: 0.3, output: 12 };
const OUTSIDE_DATABASE = `${process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/strata_e2e"}_outside`;

/** The outside app's first account is whichever spec signed up there first: this one is made admin directly. */
async function makeAdmin(email: string): Promise<void> {
  const client = new pg.Client({ connectionString: OUTSIDE_DATABASE });
  await client.connect();
  try {
    await client.query(`UPDATE "User" SET role = 'admin' WHERE email = $1`, [email]);
  } finally {
    await client.end();
  }
}

function bill(requests: Recorded[]): number {
  return requests.reduce(
    (sum, r) => sum + ((r.promptTokens - r.cachedTokens) * PRICE.input + r.cachedTokens * PRICE.cached + (r.reply?.completionTokens ?? 0) * PRICE.output) / 1e6,
    0,
  );
}

test("the conversation's cost in the header and on /account is the admin's price times the server-reported usage", async ({ browser }) => {
  const email = `cost-${Date.now()}@example.com`;
  const { page, request, context } = await signedUpOn(browser, OUTSIDE_APP, email);
  await makeAdmin(email);
  expect((await request.post(`${OUTSIDE_MODEL}/admin/reset`)).ok()).toBeTruthy();
  expect((await request.post(`${OUTSIDE_MODEL}/admin/config`, { data: { contextWindow: 4096, summaryMode: "terse" } })).ok()).toBeTruthy();
  await saveTestSettings(request, { contextWindowOverrides: { "outside-small": 4096 } });

  // The admin's price table.
  await page.goto("/admin");
  await page.getByTestId("price-model").fill("outside-small");
  // A refused price is named as the form names it, not by the API's field key.
  await page.getByTestId("price-inputPerMillion").fill("-1");
  await page.getByTestId("price-save").click();
  await expect(page.getByTestId("price-error")).toHaveText(/^Input[^:]*: a price cannot be negative/);
  await page.getByTestId("price-inputPerMillion").fill(String(PRICE.input));
  await page.getByTestId("price-cachedInputPerMillion").fill(String(PRICE.cached));
  await page.getByTestId("price-outputPerMillion").fill(String(PRICE.output));
  await page.getByTestId("price-save").click();
  await expect(page.locator('[data-testid=price-row][data-model="outside-small"]')).toBeVisible();

  const id = await newConversation(page);
  // A long system-free chat: prompts over 1,024 tokens share prefixes (cached) and compaction runs.
  const turns = Array.from({ length: 20 }, (_, turn) => `Point ${turn}: the build for Falcon-${turn} passed at ${turn * 3} minutes. <<reply 150>>`);
  await scriptTurns(request, id, turns);
  await page.reload();
  await sendMessage(page, "and what now? <<reply 40>>");

  const requests = ((await (await request.get(`${OUTSIDE_MODEL}/admin/requests`)).json()) as Recorded[]).filter((r) => r.status === 200);
  expect(requests.some((r) => r.kind === "summary")).toBe(true);
  expect(requests.reduce((sum, r) => sum + r.cachedTokens, 0)).toBeGreaterThan(0);
  const expected = bill(requests);

  const cost = page.getByTestId("conversation-cost");
  await expect(cost).toBeVisible();
  await expect.poll(async () => Number(await cost.getAttribute("data-cost"))).toBeCloseTo(expected, 9);
  // As shown: the phone menu's word "Cost" is in the button, hidden on this screen.
  await expect(cost).toHaveText(`$${expected >= 0.01 ? expected.toFixed(2) : Number(expected.toPrecision(2))}`, { useInnerText: true });
  await cost.click();
  const details = page.getByTestId("conversation-cost-details");
  await expect(details).toBeVisible();
  const lastChat = requests.filter((r) => r.kind === "chat").at(-1)!;
  // This turn: its chat call, and any compaction stored since its message.
  const thisTurn = Number(await details.getByTestId("cost-this-turn").getAttribute("data-cost"));
  expect(thisTurn).toBeGreaterThanOrEqual(bill([lastChat]) - 1e-12);
  expect(thisTurn).toBeLessThan(expected);
  expect(Number(await details.getByTestId("cost-compaction").getAttribute("data-cost"))).toBeCloseTo(bill(requests.filter((r) => r.kind === "summary")), 9);
  expect(Number(await details.getByTestId("cost-total").getAttribute("data-cached"))).toBe(requests.reduce((sum, r) => sum + r.cachedTokens, 0));

  // A compaction block says what it cost and when it pays for itself.
  await page.getByTestId("timeline").evaluate((element) => element.scrollTo(0, 0));
  await expect(page.getByTestId("compaction-cost").first()).toContainText(/cost \$.* saves .* tok/);

  // The user's total: this is their only conversation.
  await page.goto("/account");
  expect(Number(await page.getByTestId("account-cost-total").getAttribute("data-cost"))).toBeCloseTo(expected, 9);
  await context.close();
});
