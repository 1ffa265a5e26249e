// Shared steps for the e2e specs: test-server control, settings, and chat actions
// that wait for the app to finish (the conversation element counts finished
// operations in data-settled).
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import path from "node:path";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../../../lib/compression/settings";

export const MODEL_SERVER = `http://127.0.0.1:${process.env.E2E_MODEL_PORT ?? 4010}`;
export const SCREENSHOTS = path.join(process.cwd(), "docs", "screenshots");

/** A small window that fills fast: auto compaction at 60% of 2,000 tokens, no background runs. */
export const SMALL_WINDOW: Partial<CompressionSettings> = {
  contextWindowOverrides: { "gpt-4o-mini": 2000 },
  hardLimitReserve: 200,
  keepRecentCount: 4,
  threshold: 0.6,
  preemptiveThreshold: 0,
  maxSummaryTokensPerLevel: 150,
};

export async function resetModelServer(request: APIRequestContext): Promise<void> {
  expect((await request.post(`${MODEL_SERVER}/__admin/reset`)).ok()).toBeTruthy();
}

/** Serious and critical axe violations of the page as it is now, one line each. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 4).join(", ")}`);
}

type RecordedMessage = { role: string; content: string | null };
type RecordedRequest = { kind: string; body: { messages: RecordedMessage[] } };

/** The messages of the chat request the model server received for `question` (waits until it has arrived). */
export async function chatRequestFor(request: APIRequestContext, question: string): Promise<RecordedMessage[]> {
  let found: RecordedMessage[] | undefined;
  await expect
    .poll(async () => {
      const { requests } = (await (await request.get(`${MODEL_SERVER}/__admin/requests`)).json()) as { requests: RecordedRequest[] };
      found = requests.filter((r) => r.kind === "chat" && r.body.messages.at(-1)?.content === question).at(-1)?.body.messages;
      return found !== undefined;
    }, { message: `the model server never received a chat request ending with "${question}"` })
    .toBe(true);
  return found!;
}

export async function addFault(request: APIRequestContext, fault: Record<string, unknown>): Promise<void> {
  expect((await request.post(`${MODEL_SERVER}/__admin/faults`, { data: fault })).ok()).toBeTruthy();
}

export async function readSettings(request: APIRequestContext): Promise<CompressionSettings> {
  const response = await request.get("/api/settings");
  expect(response.ok()).toBeTruthy();
  return ((await response.json()) as { settings: CompressionSettings }).settings;
}

/** Defaults, then `patch` (every test starts from known settings). */
export async function saveTestSettings(request: APIRequestContext, patch: Partial<CompressionSettings>): Promise<void> {
  const response = await request.put("/api/settings", {
    data: { ...DEFAULT_SETTINGS, ...patch },
  });
  expect(response.ok(), await response.text()).toBeTruthy();
}

/**
 * An empty conversation, opened. Made through the JSON API with the page's session: the
 * UI stores a conversation only with its first message (the home page's composer).
 */
export async function newConversation(page: Page): Promise<string> {
  // With the Origin the page's own request would carry (the session cookie needs one).
  const origin = new URL(page.url().startsWith("http") ? page.url() : test.info().project.use.baseURL!).origin;
  const response = await page.request.post("/api/conversations", { data: {}, headers: { origin } });
  expect(response.status(), await response.text()).toBe(201);
  const { id } = ((await response.json()) as { conversation: { id: string } }).conversation;
  await page.goto(`/c/${id}`);
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");
  return id;
}

async function settledCount(page: Page): Promise<number> {
  return Number(await page.getByTestId("conversation").getAttribute("data-settled"));
}

/** Runs `action` and waits until the app finished the operation it started. */
export async function untilSettled(page: Page, action: () => Promise<void>, timeout = 30_000): Promise<void> {
  const before = await settledCount(page);
  await action();
  await expect.poll(() => settledCount(page), { timeout }).toBeGreaterThan(before);
}

/**
 * Sends `text` (which should ask for a long reply) with the model slowed down, and
 * presses Stop once text has streamed: before that there is nothing to keep.
 */
export async function sendAndStop(page: Page, request: APIRequestContext, text: string, chatLatencyMs = 80): Promise<void> {
  await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs, tokensPerChunk: 1 } });
  try {
    await untilSettled(page, async () => {
      await page.getByTestId("composer").fill(text);
      await page.getByTestId("composer").press("Enter");
      await expect(page.getByTestId("streaming-reply")).not.toContainText(/Thinking|Waiting for the model/);
      await page.getByTestId("stop-button").click();
    });
  } finally {
    await request.post(`${MODEL_SERVER}/__admin/latency`, { data: { chatLatencyMs: 0, tokensPerChunk: 3 } });
  }
}

/** Types a message and sends it with Enter; waits for the whole turn. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await untilSettled(page, async () => {
    await page.getByTestId("composer").fill(text);
    await page.getByTestId("composer").press("Enter");
  });
}

/** Sends turns straight to the API (fast scripted history); the page is reloaded after. */
export async function scriptTurns(request: APIRequestContext, conversationId: string, contents: string[]): Promise<void> {
  for (const content of contents) {
    const response = await request.post(`/api/conversations/${conversationId}/messages`, { data: { content } });
    expect(response.ok(), await response.text()).toBeTruthy();
  }
}

export async function meterPercent(page: Page): Promise<number> {
  return Number(await page.getByTestId("context-meter").getAttribute("data-percent"));
}

export function screenshotPath(name: string): string {
  return path.join(SCREENSHOTS, `${name}.png`);
}

/** The second app instance and the outside model it talks to (playwright.config.ts). */
export const OUTSIDE_MODEL = `http://127.0.0.1:${process.env.E2E_OUTSIDE_MODEL_PORT ?? Number(process.env.E2E_MODEL_PORT ?? 4010) + 1}`;
export const OUTSIDE_APP = `http://127.0.0.1:${process.env.E2E_OUTSIDE_APP_PORT ?? Number(process.env.E2E_APP_PORT ?? 3100) + 1}`;
