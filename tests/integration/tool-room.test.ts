// The demo's tool servers (filesystem and memory, real MCP servers from the npm registry)
// at small windows, against the outside model, which reads tool definitions as JSON and
// refuses a request over its window. Before their definitions were held to a share of
// the window, every request at 2k was refused (they alone are about 3,500 tokens to it),
// and each turn first summarized and cut its own message.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { newConversation, saveTestSettings, send, setupHarness } from "../support/harness";
import { backgroundSettled } from "../../lib/chat/compressor";
import { startOutsideModel, type OutsideModel } from "../support/outside-model/server";
import { mulberry32 } from "../support/outside-model/behaviour";
import { chatter } from "../support/simulation";
import { addMissingMcpServers } from "../../lib/db/mcp-servers";
import { demoServers } from "../../lib/mcp/demo-servers";
import { mcpPool } from "../../lib/mcp/pool";
import * as ops from "../../lib/chat/operations";
import type { TurnEvent } from "../../lib/chat/events";
import { DEMO_MODEL } from "../../lib/llm/models";

const h = setupHarness();
const MODEL = "gpt-4o-mini";
const started: OutsideModel[] = [];
let originalBaseUrl: string | undefined;

const admin = () => ({ id: h.user.id, role: "admin" as const });

beforeEach(async () => {
  originalBaseUrl ??= process.env.OPENAI_BASE_URL;
  for (const server of await h.db.mcpServer.findMany()) await ops.deleteToolServer(admin(), server.id);
  await addMissingMcpServers(h.db, demoServers());
});
afterAll(async () => {
  // The database outlives this file: servers left on by default would join every later file's turns.
  for (const server of await h.db.mcpServer.findMany()) await ops.deleteToolServer(admin(), server.id);
  await mcpPool().closeAll();
  process.env.OPENAI_BASE_URL = originalBaseUrl;
  await Promise.all(started.map((server) => server.close()));
});

async function serverWithWindow(window: number): Promise<OutsideModel> {
  const server = await startOutsideModel({ contextWindow: window });
  started.push(server);
  process.env.OPENAI_BASE_URL = server.url;
  await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: window } });
  return server;
}

type Body = { tools?: { function: { name: string } }[] };
const offeredNames = (body: unknown) => ((body as Body).tools ?? []).map((tool) => tool.function.name);
const notices = (events: TurnEvent[]) => events.flatMap((event) => (event.type === "notice" ? [event.message] : []));

describe("tool servers at small windows (the outside model reads their definitions as JSON)", () => {
  it("2k: the servers' tools are left out with a notice; 30 turns are answered, without a cut, and the meter counts what was sent", async () => {
    const server = await serverWithWindow(2048);
    const conversation = await newConversation();
    const rng = mulberry32(7);
    for (let turn = 0; turn < 30; turn++) {
      const events = await send(conversation.id, `Turn ${turn}. ${chatter(rng, 60)}`);
      expect(events.at(-1)?.type, JSON.stringify(events.at(-1))).toBe("done");
      expect(notices(events)).toEqual([expect.stringContaining('The tools of tool servers "filesystem" and "memory" were not offered for this reply')]);
      await backgroundSettled(conversation.id);
    }
    const chats = server.requests().filter((request) => request.kind === "chat");
    expect(chats.map((request) => request.status)).toEqual(chats.map(() => 200));
    for (const request of chats) expect(offeredNames(request.body).some((name) => name.startsWith("filesystem") || name.startsWith("memory"))).toBe(false);
    const kinds = (await h.db.compaction.findMany({ where: { conversationId: conversation.id } })).map((c) => c.kind);
    expect(kinds).not.toContain("truncation");
    // A handful of summaries for 60 messages (one a turn when the definitions crowded the window).
    expect(kinds.length).toBeGreaterThan(0);
    expect(kinds.length).toBeLessThanOrEqual(8);

    const page = await ops.meter(h.user, conversation.id);
    const sent = await send(conversation.id, "One more.");
    const done = sent.at(-1) as Extract<TurnEvent, { type: "done" }>;
    expect(page.toolTokens).toBe(done.context.toolTokens);
  }, 120_000);

  it("8k: the servers taken in the order listed while they fit; 32k and the demo model's own window: all of them, and no notice", async () => {
    await serverWithWindow(8192);
    const at8k = await newConversation();
    const events = await send(at8k.id, "Which files are there?");
    expect(events.at(-1)?.type).toBe("done");
    expect(notices(events)).toEqual([expect.stringContaining('The tools of tool server "memory" were not offered for this reply')]);

    const server = await serverWithWindow(32_768);
    const at32k = await newConversation();
    const wide = await send(at32k.id, "Which files are there?");
    expect(notices(wide)).toEqual([]);
    const offered = offeredNames(server.requests().at(-1)!.body);
    expect(offered.some((name) => name.startsWith("filesystem"))).toBe(true);
    expect(offered.some((name) => name.startsWith("memory"))).toBe(true);

    // The demo model at the window the catalog gives it offers both of the demo's servers.
    await saveTestSettings(h.db, {});
    const demo = await newConversation(DEMO_MODEL);
    const demoTurn = await send(demo.id, "Which files are there?");
    expect(demoTurn.at(-1)?.type).toBe("done");
    expect(notices(demoTurn)).toEqual([]);
    const demoOffered = offeredNames(server.requests().at(-1)!.body);
    expect(demoOffered.filter((name) => name.startsWith("filesystem") || name.startsWith("memory")).length).toBeGreaterThanOrEqual(20);
  }, 60_000);
});
