// Per-file harness for the fault suite: the project's test server, the app's database,
// settings and turn helpers (the same calls the route handlers make).
import { afterAll, beforeAll } from "vitest";
import { startTestServer, type TestServer, type TestServerOptions } from "../../../lib/llm/test-server";
import { closeDb, getDb, type Db } from "../../../lib/db/client";
import { writeSettings } from "../../../lib/db/settings";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../../../lib/compression/settings";
import * as ops from "../../../lib/chat/operations";
import type { TurnEvent } from "../../../lib/chat/events";

export type Harness = { server: TestServer; db: Db };

export function setupHarness(options: TestServerOptions = {}): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.server = await startTestServer(options);
    process.env.OPENAI_BASE_URL = harness.server.url;
    process.env.OPENAI_API_KEY = "test";
    harness.db = await getDb();
    await writeSettings(harness.db, DEFAULT_SETTINGS);
  });
  afterAll(async () => {
    await writeSettings(harness.db, DEFAULT_SETTINGS);
    await closeDb();
    await harness.server.close();
  });
  return harness;
}

export async function applySettings(db: Db, patch: Partial<CompressionSettings>): Promise<CompressionSettings> {
  return writeSettings(db, { ...DEFAULT_SETTINGS, ...patch });
}

export async function collect(events: AsyncGenerator<TurnEvent>): Promise<TurnEvent[]> {
  const all: TurnEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

export async function send(conversationId: string, content: string): Promise<TurnEvent[]> {
  return collect(await ops.startTurn({ conversationId, content }));
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
