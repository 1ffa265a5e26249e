// Per-file harness for the integration and fault suites: the real OpenAI-compatible
// test server, the app's database, and helpers to drive turns exactly as the server
// actions and route handlers do.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startTestServer, type TestServer, type TestServerOptions } from "../../lib/llm/test-server";
import { closeDb, getDb, type Db } from "../../lib/db/client";
import { writeSettings } from "../../lib/db/settings";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../../lib/compression/settings";
import * as ops from "../../lib/chat/operations";
import type { TurnEvent } from "../../lib/chat/events";

export type Harness = { server: TestServer; db: Db };

/**
 * `resetEachTest` (default) clears faults, recorded requests and settings before every
 * test; suites whose tests build on each other turn it off.
 */
export function setupHarness(options: TestServerOptions & { resetEachTest?: boolean } = {}): Harness {
  const { resetEachTest = true, ...serverOptions } = options;
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.server = await startTestServer(serverOptions);
    process.env.OPENAI_BASE_URL = harness.server.url;
    process.env.OPENAI_API_KEY = "test-key";
    harness.db = await getDb();
    await writeSettings(harness.db, DEFAULT_SETTINGS);
  });
  beforeEach(async () => {
    if (!resetEachTest) return;
    harness.server.reset();
    await writeSettings(harness.db, DEFAULT_SETTINGS);
  });
  afterAll(async () => {
    await writeSettings(harness.db, DEFAULT_SETTINGS);
    await closeDb();
    await harness.server.close();
  });
  return harness;
}

export async function saveTestSettings(db: Db, patch: Partial<CompressionSettings>): Promise<CompressionSettings> {
  return writeSettings(db, { ...DEFAULT_SETTINGS, ...patch });
}

export async function newConversation(model = "gpt-4o-mini", systemPrompt = "You are a helpful assistant.") {
  return ops.createConversation({ title: "Test", model, systemPrompt });
}

export async function collect(events: AsyncGenerator<TurnEvent>): Promise<TurnEvent[]> {
  const all: TurnEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Row counts of every table, to prove a refused request stored nothing. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const [conversations, messages, compactions, attempts, settings] = await Promise.all([
    db.conversation.count(),
    db.message.count(),
    db.compaction.count(),
    db.compactionAttempt.count(),
    db.settings.findUnique({ where: { id: 1 } }).then((row) => (row ? JSON.stringify(row.values).length : 0)),
  ]);
  return { conversations, messages, compactions, attempts, settingsBytes: settings };
}

export async function send(conversationId: string, content: string, signal?: AbortSignal): Promise<TurnEvent[]> {
  return collect(await ops.startTurn({ conversationId, content }, signal));
}

export function chatRequests(server: TestServer) {
  return server.requests.filter((request) => request.path.endsWith("/chat/completions") && request.kind === "chat");
}
