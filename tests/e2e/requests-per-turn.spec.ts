// What the browser asks the server for around a message it sends (issue 23, item 5): the
// turn's own `done` event carries the conversation's version, so the change poll does not
// take the tab's own turn for another tab's and reload everything; the sidebar's list is
// read once per turn. A change made elsewhere is still picked up. Requests are counted
// with Playwright's request listener; server actions are named from the client chunks,
// which carry each action's id beside its export name.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { newConversation, sendMessage } from "./support/helpers";

// How long the tab is watched after its turn: more than two polls (SYNC_INTERVAL_MS, 2 s).
const QUIET_MS = 5_000;

// (0,x.createServerReference)("<id>",x.callServer,void 0,x.findSourceMapURL,"<name>")
const SERVER_REFERENCE = /"([0-9a-f]{40,})",[\w$.]+,void 0,[\w$.]+,"(\w+)"\)/g;

/** Every request of the page to the app, as "GET /api/…" (ids replaced by :id) or the server action's name. */
function recordRequests(page: Page, origin: string) {
  const actionNames = new Map<string, string>();
  const seen: string[] = [];
  page.on("response", async (response) => {
    if (!/\/_next\/static\/chunks\/.+\.js/.test(response.url())) return;
    const text = await response.text().catch(() => "");
    for (const [, id, name] of text.matchAll(SERVER_REFERENCE)) actionNames.set(id!, name!);
  });
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin) return;
    const action = request.headers()["next-action"];
    if (request.method() === "POST" && action) seen.push(actionNames.get(action) ?? `unnamed action ${action}`);
    else if (request.method() === "GET" && url.pathname.startsWith("/api/")) {
      seen.push(`GET ${url.pathname.replace(/\/api\/(conversations|compactions)\/[0-9a-f-]{36}/, "/api/$1/:id")}`);
    }
  });
  return {
    clear: () => void seen.splice(0),
    all: () => [...seen],
    count: (pattern: RegExp) => seen.filter((entry) => pattern.test(entry)).length,
  };
}

const LIST = /^(conversationPageAction|GET \/api\/conversations\/pages)$/;
const TIMELINE = /^(timelineAction|GET \/api\/conversations\/:id\/messages)$/;
const METER = /^(contextMeterAction|GET \/api\/conversations\/:id\/context)$/;

test("a sent message reads the list once and reloads neither timeline nor meter; a change from elsewhere is still seen", async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  const requests = recordRequests(page, new URL(baseURL!).origin);
  const id = await newConversation(page);
  // The first message names the conversation; its turn is left out of the count.
  await sendMessage(page, "Hello there, what is a good name for a harbour survey?");
  await page.waitForTimeout(QUIET_MS);

  requests.clear();
  for (const question of ["Which tide tables should the survey use?", "And which boat?"]) await sendMessage(page, question);
  await page.waitForTimeout(QUIET_MS);
  // The one read per turn is enough: the sidebar counts the three turns' messages.
  await expect(page.locator(`[data-testid=conversation-item][data-id="${id}"]`).getByText(/messages$/)).toHaveText("6 messages");
  const seen = requests.all().join("\n");
  expect(requests.count(/^sendMessageAction$/), seen).toBe(2);
  expect(requests.count(/^unnamed action/), `server actions the chunks did not name:\n${seen}`).toBe(0);
  expect.soft(requests.count(LIST), `the sidebar's list, read more than once per message:\n${seen}`).toBeLessThanOrEqual(2);
  expect.soft(requests.count(TIMELINE), `the timeline reloaded after the tab's own turns:\n${seen}`).toBe(0);
  expect.soft(requests.count(METER), `the meter read although each done event carried it:\n${seen}`).toBe(0);

  // Each count above is reported on its own (soft), so one run shows every one that is off.
  // A turn made elsewhere (the API, as another device would) moves the version: the tab reloads once.
  requests.clear();
  const response = await request.post(`/api/conversations/${id}/messages`, { data: { content: "A question from the phone" } });
  expect(response.ok(), await response.text()).toBeTruthy();
  await expect(page.getByTestId("timeline")).toContainText("A question from the phone", { timeout: 10_000 });
  await page.waitForTimeout(QUIET_MS);
  expect(requests.count(TIMELINE), requests.all().join("\n")).toBe(1);
  expect(requests.count(LIST), requests.all().join("\n")).toBe(1);
  await expect(page.locator(`[data-testid=conversation-item][data-id="${id}"]`).getByText(/messages$/)).toHaveText("8 messages");
});
