// Per-file harness for the integration and fault suites: the real OpenAI-compatible
// test model (./test-model: the demo server behind a fault-injecting proxy), the app's database, a signed-up user the suite acts as (see
// ./accounts.ts), and helpers to drive turns exactly as the server actions and route
// handlers do.
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { startTestServer, type TestServer, type TestServerOptions } from "./test-model";
import { closeDb, getDb, type Db } from "../../lib/db/client";
import { writeDefaults, writeUserSettings } from "../../lib/db/settings";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../../lib/compression/settings";
import * as ops from "../../lib/chat/operations";
import type { TurnEvent } from "../../lib/chat/events";
import { signUp, uniqueEmail, type TestUser } from "./accounts";
import { AppError } from "../../lib/errors";

export type Harness = { server: TestServer; db: Db; user: TestUser };

// The user of the running file's harness: `send`, `newConversation` and
// `saveTestSettings` act as them.
let harnessUser: TestUser | undefined;

function suiteUser(): TestUser {
  if (!harnessUser) throw new Error("setupHarness() has not signed a user up yet.");
  return harnessUser;
}

async function resetSettings(db: Db, user: TestUser): Promise<void> {
  await writeDefaults(db, DEFAULT_SETTINGS);
  await writeUserSettings(db, user.id, DEFAULT_SETTINGS);
}

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
    harness.user = harnessUser = await signUp(uniqueEmail("owner"));
    await resetSettings(harness.db, harness.user);
  });
  beforeEach(async () => {
    if (!resetEachTest) return;
    harness.server.reset();
    await resetSettings(harness.db, harness.user);
  });
  afterAll(async () => {
    await resetSettings(harness.db, harness.user);
    harnessUser = undefined;
    await closeDb();
    await harness.server.close();
  });
  return harness;
}

/** The suite user's settings: the defaults, then `patch`. */
export async function saveTestSettings(db: Db, patch: Partial<CompressionSettings>): Promise<CompressionSettings> {
  return (await writeUserSettings(db, suiteUser().id, { ...DEFAULT_SETTINGS, ...patch })).settings;
}

export async function newConversation(model = "gpt-4o-mini", systemPrompt = "You are a helpful assistant.") {
  return ops.createConversation(suiteUser(), { title: "Test", model, systemPrompt });
}

export async function collect(events: AsyncGenerator<TurnEvent>): Promise<TurnEvent[]> {
  const all: TurnEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Row counts of every owned table and the settings as stored, to prove a refused request stored nothing. */
export async function rowCounts(db: Db): Promise<Record<string, number | string>> {
  const [conversations, messages, compactions, attempts, tokens, users, userSettings, conversationSettings, defaults] = await Promise.all([
    db.conversation.count(),
    db.message.count(),
    db.compaction.count(),
    db.compactionAttempt.count(),
    db.apikey.count(),
    db.user.count(),
    db.userSettings.findMany({ orderBy: { userId: "asc" } }).then((rows) => JSON.stringify(rows.map((row) => row.values))),
    db.conversation.findMany({ orderBy: { id: "asc" }, select: { settingsOverrides: true } }).then((rows) => JSON.stringify(rows)),
    db.instance.findUnique({ where: { id: 1 } }).then((row) => JSON.stringify([row?.compressionDefaults, row?.signupsOpen])),
  ]);
  return { conversations, messages, compactions, attempts, tokens, users, userSettings, conversationSettings, defaults };
}

export async function send(conversationId: string, content: string, signal?: AbortSignal): Promise<TurnEvent[]> {
  return collect(await ops.startTurn(suiteUser(), { conversationId, content }, signal));
}

export function chatRequests(server: TestServer) {
  return server.requests.filter((request) => request.path.endsWith("/chat/completions") && request.kind === "chat");
}

/** The AppError an operation was refused with (fails the test when it was not refused so). */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
