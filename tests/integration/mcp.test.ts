// Tool servers in the chat loop, against real MCP servers started as child processes:
// @modelcontextprotocol/server-everything over stdio and over Streamable HTTP, and the
// misbehaving tests/support/mcp-fault-server. The model is a scripted HTTP server that
// makes the calls each test needs; our MCP client is never replaced.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { newConversation, refusal, send, setupHarness } from "../support/harness";
import { signUp, uniqueEmail } from "../support/accounts";
import * as ops from "../../lib/chat/operations";
import { logger } from "../../lib/log/logger";
import { mcpPool } from "../../lib/mcp/pool";
import { addMissingMcpServers, createMcpServer, mcpServersInUse, setConversationMcpServer } from "../../lib/db/mcp-servers";
import { openTurnGateWithMessage } from "../../lib/chat/concurrency";
import { demoServers } from "../../lib/mcp/demo-servers";
import { toolsForTurn } from "../../lib/chat/tools";
import { DEFAULT_SETTINGS } from "../../lib/compression/settings";
import type { TurnEvent } from "../../lib/chat/events";
import { startScriptedModel, toolResults, type ScriptedModel } from "../support/scripted-tool-model";

const h = setupHarness();

const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FAULTS = path.resolve("tests/support/mcp-fault-server/server.mjs");
const SECRET = "s3cr3t-token-for-tests";

let model: ScriptedModel;
let httpServer: ChildProcess | undefined;
let httpPort = 0;

async function startEverythingHttp(): Promise<void> {
  if (!httpPort) {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    httpPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
  }
  httpServer = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(httpPort) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let said = "";
    httpServer!.stderr!.on("data", (part: Buffer) => {
      said += part.toString();
      if (said.includes("listening")) resolve();
    });
    httpServer!.once("exit", (code) => reject(new Error(`server-everything (HTTP) exited with ${code}: ${said}`)));
  });
}

const admin = () => ({ id: h.user.id, role: "admin" as const });

beforeAll(async () => {
  model = await startScriptedModel();
  process.env.OPENAI_BASE_URL = model.url;
  await startEverythingHttp();
});
afterAll(async () => {
  // The database outlives this file: servers left on by default would join every later file's turns.
  for (const server of await h.db.mcpServer.findMany()) await ops.deleteToolServer(admin(), server.id);
  await mcpPool().closeAll();
  httpServer?.kill();
  await model.close();
});
beforeEach(async () => {
  model.reset();
  for (const server of await h.db.mcpServer.findMany()) await ops.deleteToolServer(admin(), server.id);
  delete process.env.STRATA_TOOL_TIMEOUT_MS;
});

function stdio(name: string, script: string, args: string[] = [], env: { name: string; value: string }[] = []) {
  return ops.createToolServer(admin(), { name, transport: { kind: "stdio", command: process.execPath, args: [script, ...args], env }, onByDefault: true });
}

const offered = (index = 0) => model.offered(index);

describe("a stdio server (server-everything)", () => {
  it("offers its tools under namespaced names and runs a call; the model reads the result", async () => {
    await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "everything__echo", args: { message: "hello there" } }] }];
    const events = await send(conversation.id, "Echo something.");
    expect(offered()).toEqual(expect.arrayContaining(["current_time", "everything__echo", "everything__get-sum"]));
    for (const name of offered()) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const [result] = toolResults(events);
    expect(result).toMatchObject({ toolOutcome: "done", toolServer: "everything", content: "Echo: hello there" });
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: "tool", content: "Echo: hello there" });
    expect(events.at(-1)?.type).toBe("done");
  });

  it("the meter read after the turn (a page load) counts the server's tool definitions as the turn did", async () => {
    await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    const events = await send(conversation.id, "Just answer.");
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    const turnMeter = (done as Extract<TurnEvent, { type: "done" }>).context;
    const pageMeter = await ops.meter(h.user, conversation.id);
    // server-everything's definitions are most of what the request costs beyond its messages.
    expect(turnMeter.toolTokens).toBeGreaterThan(500);
    expect(pageMeter.toolTokens).toBe(turnMeter.toolTokens);
    expect(pageMeter.totalTokens).toBe(turnMeter.totalTokens);
  });

  it("runs several calls of one reply at once and stores the results in call order", async () => {
    await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    // Warm: the server is started by the first turn, not timed here.
    await send(conversation.id, "Hi.");
    model.steps = [
      {
        calls: [
          { name: "everything__trigger-long-running-operation", args: { duration: 2, steps: 1 }, id: "first" },
          { name: "everything__trigger-long-running-operation", args: { duration: 2, steps: 1 }, id: "second" },
          { name: "everything__get-sum", args: { a: 2, b: 3 }, id: "third" },
        ],
      },
    ];
    const started = Date.now();
    const events = await send(conversation.id, "Three things at once.");
    const elapsed = Date.now() - started;
    const results = toolResults(events);
    expect(results.map((result) => result.toolCallId)).toEqual(["first", "second", "third"]);
    expect(results.map((result) => result.toolOutcome)).toEqual(["done", "done", "done"]);
    expect(results[2]!.content).toMatch(/5/);
    // One after the other the two 2-second calls take 4 s; together, 2.
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(elapsed).toBeLessThan(3800);
  });

  it("an error result, an unknown tool, invalid JSON arguments: failed results the model reads, and the turn goes on", async () => {
    await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    model.steps = [
      {
        calls: [
          { name: "everything__get-sum", args: { a: "two", b: 3 }, id: "bad_args" },
          { name: "everything__no-such-tool", args: {}, id: "unknown" },
          { name: "everything__echo", args: "{not json", id: "bad_json" },
        ],
      },
    ];
    const events = await send(conversation.id, "Make mistakes.");
    const results = toolResults(events);
    expect(results.map((result) => result.toolOutcome)).toEqual(["failed", "failed", "failed"]);
    expect(results[0]!.content).toMatch(/a/);
    expect(results[1]!.content).toMatch(/unknown tool "everything__no-such-tool"/);
    expect(results[2]!.content).toMatch(/not valid JSON/);
    expect(model.requests[1]!.messages.filter((message) => message.role === "tool")).toHaveLength(3);
    expect(events.at(-1)?.type).toBe("done");
  });

  it("a call past the time limit fails with a note saying so", async () => {
    process.env.STRATA_TOOL_TIMEOUT_MS = "1000";
    await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "everything__trigger-long-running-operation", args: { duration: 5, steps: 1 } }] }];
    const [result] = toolResults(await send(conversation.id, "Take your time."));
    expect(result).toMatchObject({ toolOutcome: "failed" });
    expect(result!.content).toMatch(/did not answer within 1 s/);
    expect(result!.toolDurationMs!).toBeLessThan(4000);
  });

  it("Stop cancels a running call: the result says so and no model call follows", async () => {
    await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "everything__trigger-long-running-operation", args: { duration: 20, steps: 1 } }] }];
    const stop = new AbortController();
    const events: TurnEvent[] = [];
    for await (const event of await ops.startTurn(h.user, { conversationId: conversation.id, content: "Long job." }, stop.signal)) {
      events.push(event);
      // The reply with the call is stored just before the call runs.
      if (event.type === "message" && event.message.role === "assistant") setTimeout(() => stop.abort(), 300);
    }
    const [result] = toolResults(events);
    expect(result).toMatchObject({ toolOutcome: "failed" });
    expect(result!.content).toMatch(/stopped this call/);
    expect(result!.toolDurationMs!).toBeLessThan(5000);
    expect(model.requests).toHaveLength(1);
  });

  it("a server switched off for the conversation mid-turn: its call is refused", async () => {
    const server = await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "everything__echo", args: { message: "x" } }] }];
    // The user switches it off while the model is answering (after the tools were offered).
    model.beforeReply = async () => void (await ops.setConversationToolServer(h.user, { conversationId: conversation.id, serverId: server.id, on: false }));
    const events = await send(conversation.id, "Echo.");
    expect(offered()).toContain("everything__echo");
    const [result] = toolResults(events);
    expect(result).toMatchObject({ toolOutcome: "failed" });
    expect(result!.content).toMatch(/switched off for this conversation/);
    // The next turn does not offer it.
    await send(conversation.id, "Again.");
    expect(offered(2)).not.toContain("everything__echo");
  });

  it("a server the admin disabled is not offered, and one switched on by default can be switched off per conversation", async () => {
    const server = await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    expect(await ops.conversationToolServers(h.user, conversation.id)).toMatchObject([{ name: "everything", on: true }]);
    await ops.setConversationToolServer(h.user, { conversationId: conversation.id, serverId: server.id, on: false });
    await send(conversation.id, "Hi.");
    expect(offered(0).some((name) => name.startsWith("everything__"))).toBe(false);
    const other = await newConversation();
    await ops.updateToolServer(admin(), { id: server.id, name: "everything", transport: { kind: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] }, enabled: false, onByDefault: true });
    await send(other.id, "Hi.");
    expect(offered(1).some((name) => name.startsWith("everything__"))).toBe(false);
    expect(await ops.conversationToolServers(h.user, other.id)).toEqual([]);
  });
});

describe("a Streamable HTTP server (server-everything)", () => {
  it("lists its tools and runs a call", async () => {
    await ops.createToolServer(admin(), {
      name: "remote",
      transport: { kind: "http", url: `http://127.0.0.1:${httpPort}/mcp`, headers: [{ name: "Authorization", value: `Bearer ${SECRET}` }] },
      onByDefault: true,
    });
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "remote__get-sum", args: { a: 20, b: 22 } }] }];
    const [result] = toolResults(await send(conversation.id, "Add."));
    expect(offered()).toContain("remote__echo");
    expect(result).toMatchObject({ toolOutcome: "done", toolServer: "remote" });
    expect(result!.content).toMatch(/42/);
  });

  it("restarted, it forgets the session: that call fails, the next one connects afresh", async () => {
    await ops.createToolServer(admin(), { name: "remote", transport: { kind: "http", url: `http://127.0.0.1:${httpPort}/mcp` }, onByDefault: true });
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "remote__echo", args: { message: "one" } }] }];
    expect(toolResults(await send(conversation.id, "One."))[0]).toMatchObject({ toolOutcome: "done", content: "Echo: one" });
    const exited = new Promise((resolve) => httpServer!.once("exit", resolve));
    httpServer!.kill();
    await exited;
    await startEverythingHttp();
    model.steps = [{ calls: [{ name: "remote__echo", args: { message: "two" } }] }, { text: "Lost it." }, { calls: [{ name: "remote__echo", args: { message: "three" } }] }];
    expect(toolResults(await send(conversation.id, "Two."))[0]).toMatchObject({ toolOutcome: "failed" });
    expect(toolResults(await send(conversation.id, "Three."))[0]).toMatchObject({ toolOutcome: "done", content: "Echo: three" });
  });
});

describe("faults", () => {
  it("a server that does not start shows as down with the reason (secrets blanked), and its tools are not offered", async () => {
    const log = vi.spyOn(logger, "warn");
    await stdio("nostart", FAULTS, [], [
      { name: "FAULT_SERVER_FAIL_START", value: "1" },
      { name: "FAULT_SERVER_TOKEN", value: SECRET },
    ]);
    await ops.createToolServer(admin(), { name: "nocommand", transport: { kind: "stdio", command: "/nonexistent/strata-mcp-server" }, onByDefault: true });
    await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    const events = await send(conversation.id, "Hi.");
    expect(events.at(-1)?.type).toBe("done");
    expect(offered()).toContain("everything__echo");
    expect(offered().some((name) => name.startsWith("nostart__") || name.startsWith("nocommand__"))).toBe(false);
    const views = await ops.listToolServers(admin());
    const byName = Object.fromEntries(views.map((view) => [view.name, view]));
    expect(byName.nocommand!.status).toMatchObject({ state: "down", reason: expect.stringMatching(/ENOENT/) });
    expect(byName.nostart!.status).toMatchObject({ state: "down", reason: expect.stringMatching(/refusing to start; token \*\*\*/) });
    expect(byName.nostart!.transport).toEqual({ kind: "stdio", command: process.execPath, args: [FAULTS], envNames: ["FAULT_SERVER_FAIL_START", "FAULT_SERVER_TOKEN"] });
    expect(JSON.stringify(views)).not.toContain(SECRET);
    expect(JSON.stringify(log.mock.calls)).not.toContain(SECRET);
    expect(JSON.stringify(log.mock.calls)).toMatch(/nostart/);
    log.mockRestore();
  });

  it("a tool with an invalid schema is skipped with the reason; the server's other tools are offered", async () => {
    await stdio("faults", FAULTS);
    const conversation = await newConversation();
    await send(conversation.id, "Hi.");
    expect(offered()).toEqual(expect.arrayContaining(["faults__ok", "faults__hang", "faults__big"]));
    expect(offered()).not.toContain("faults__broken");
    const [view] = await ops.listToolServers(admin());
    expect(view!.status).toMatchObject({ state: "up", skipped: [{ name: "broken", reason: expect.stringMatching(/inputSchema/) }] });
  });

  it("a crash mid-call is a failed result, and the next call reconnects", async () => {
    await stdio("faults", FAULTS);
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "faults__crash", args: {} }] }, { text: "It crashed." }, { calls: [{ name: "faults__ok", args: {} }] }];
    const [crashed] = toolResults(await send(conversation.id, "Crash it."));
    expect(crashed).toMatchObject({ toolOutcome: "failed" });
    expect(crashed!.content).toMatch(/closed the connection during the call/);
    const [after] = toolResults(await send(conversation.id, "Again."));
    expect(after).toMatchObject({ toolOutcome: "done", content: "fine" });
  });

  it("malformed content is a failed result; images and resource links are one line each, never base64", async () => {
    await stdio("faults", FAULTS);
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "faults__malformed", args: {}, id: "m" }, { name: "faults__image", args: {}, id: "i" }] }];
    const [malformed, image] = toolResults(await send(conversation.id, "Odd answers."));
    expect(malformed).toMatchObject({ toolOutcome: "failed" });
    expect(malformed!.content).toMatch(/answered with an error: Invalid tools\/call result/);
    expect(malformed!.content.length).toBeLessThan(400);
    expect(image).toMatchObject({ toolOutcome: "done" });
    expect(image!.content).toBe("[image: image/png, 2.9 KB]\n[resource link: report file:///tmp/report.txt (text/plain)]");
  });
});

describe("images and resources (server-everything)", () => {
  it("keeps the blocks for the card beside the text the model reads: an image, an embedded resource, resource links", async () => {
    await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    model.steps = [
      {
        calls: [
          { name: "everything__get-tiny-image", args: {}, id: "img" },
          { name: "everything__get-resource-reference", args: { resourceType: "Text", resourceId: 2 }, id: "ref" },
          { name: "everything__get-resource-links", args: { count: 2 }, id: "links" },
          { name: "everything__echo", args: { message: "plain" }, id: "echo" },
        ],
      },
    ];
    const events = await send(conversation.id, "Show me things.");
    const [image, reference, links, echo] = toolResults(events);
    // The model reads text: the image as a short note with its type and size, never base64.
    const sent = model.requests[1]!.messages.filter((message) => message.role === "tool").map((message) => String(message.content));
    expect(sent[0]).toMatch(/^Here's the image you requested:\n\[image: image\/png, [\d.]+ KB\]\nThe image above is the MCP logo\.$/);
    expect(sent.join("\n")).not.toMatch(/iVBOR/);
    // The card gets the blocks, in order, the image with its data.
    expect(image!.toolContent?.map((part) => part.type)).toEqual(["text", "image", "text"]);
    const png = image!.toolContent![1]!;
    expect(png).toMatchObject({ type: "image", mimeType: "image/png", data: expect.stringMatching(/^iVBOR/) });
    expect(png.type === "image" && png.bytes).toBeGreaterThan(100);
    const resource = reference!.toolContent!.find((part) => part.type === "resource")!;
    expect(resource).toMatchObject({ type: "resource", uri: expect.stringMatching(/2$/), mimeType: "text/plain", text: expect.any(String), data: null });
    expect(reference!.content).toContain(resource.type === "resource" ? resource.text! : "");
    expect(links!.toolContent!.filter((part) => part.type === "resource_link")).toHaveLength(2);
    expect(links!.toolContent![1]).toMatchObject({ type: "resource_link", uri: "demo://resource/dynamic/blob/1", name: "Blob Resource 1", title: null, description: "Resource 1: plaintext resource" });
    // Text alone: nothing kept beside it.
    expect(echo!.toolContent).toBeNull();
    // Stored, and read back through the schema as a page load reads it.
    const page = await ops.timeline(h.user, { conversationId: conversation.id });
    const reread = page.items.flatMap((item) => (item.type === "message" && item.message.role === "tool" ? [item.message] : []));
    expect(reread.map((message) => message.toolContent?.length ?? 0)).toEqual([3, 3, 3, 0]);
    expect(reread[0]!.toolContent).toEqual(image!.toolContent);
  });

  it("a column that fails the schema reads as no blocks: the card falls back to the text", async () => {
    await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "everything__get-tiny-image", args: {}, id: "img" }] }];
    const [image] = toolResults(await send(conversation.id, "An image."));
    await h.db.message.update({ where: { id: image!.id }, data: { toolContent: [{ type: "image", data: 42 }] } });
    const page = await ops.timeline(h.user, { conversationId: conversation.id });
    const reread = page.items.flatMap((item) => (item.type === "message" && item.message.role === "tool" ? [item.message] : []));
    expect(reread[0]).toMatchObject({ toolContent: null, content: image!.content });
  });
});

describe("the demo's servers", () => {
  it("filesystem on demo/files and memory start from their relative paths and are on by default; added once", async () => {
    expect(await addMissingMcpServers(h.db, demoServers())).toEqual(["filesystem", "memory"]);
    expect(await addMissingMcpServers(h.db, demoServers())).toEqual([]);
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "filesystem__list_directory", args: { path: "." }, id: "l" }, { name: "filesystem__read_text_file", args: { path: "notes.md" }, id: "r" }] }];
    const [list, read] = toolResults(await send(conversation.id, "Files?"));
    expect(offered()).toEqual(expect.arrayContaining(["filesystem__read_text_file", "memory__read_graph"]));
    expect(list).toMatchObject({ toolOutcome: "done", toolServer: "filesystem" });
    expect(list!.content).toMatch(/\[FILE\] notes\.md/);
    expect(read!.content).toMatch(/Meeting with Ada moved to Thursday/);
    // A tool the server marks read-only runs without asking; any other asks the user first.
    const { tools } = await toolsForTurn({ userId: h.user.id, conversationId: conversation.id, settings: DEFAULT_SETTINGS });
    const approval = (name: string) => tools.find((tool) => tool.definition.function.name === name)?.requiresApproval;
    expect([approval("filesystem__read_text_file"), approval("filesystem__write_file")]).toEqual([false, true]);
    const views = await ops.listToolServers(admin());
    expect(views.find((view) => view.name === "filesystem")!.status).toMatchObject({ state: "up", tools: expect.arrayContaining([{ name: "write_file", description: expect.any(String), readOnly: false }]) });
  });
});

describe("the demo's first account", () => {
  it("configures filesystem and memory in demo mode only", async () => {
    const instance = await h.db.instance.findUniqueOrThrow({ where: { id: 1 } });
    const saved = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL };
    const names = async () => (await h.db.mcpServer.findMany({ orderBy: { name: "asc" } })).map((server) => server.name);
    try {
      // With a model configured: no demo servers.
      await h.db.instance.update({ where: { id: 1 }, data: { firstUserId: null } });
      await signUp(uniqueEmail("first-real"));
      expect(await names()).toEqual([]);
      // The demo model: the first account gets them.
      await h.db.instance.update({ where: { id: 1 }, data: { firstUserId: null } });
      delete process.env.OPENAI_API_KEY;
      delete process.env.OPENAI_BASE_URL;
      const first = await signUp(uniqueEmail("first-demo"));
      expect(await names()).toEqual(["filesystem", "memory"]);
      expect((await h.db.user.findUniqueOrThrow({ where: { id: first.id } })).role).toBe("admin");
      expect((await h.db.mcpServer.findMany()).every((server) => server.enabled && server.onByDefault)).toBe(true);
    } finally {
      Object.assign(process.env, saved);
      await h.db.instance.update({ where: { id: 1 }, data: { firstUserId: instance.firstUserId } });
    }
  });
});

describe("configuring servers", () => {
  it("the statement storing a turn's message reads the servers in use as the tool servers' own query does: switches, defaults and disabled ones", async () => {
    const dead = (name: string, enabled: boolean, onByDefault: boolean) =>
      createMcpServer(h.db, { name, transport: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: { "X-Key": SECRET } }, enabled, onByDefault });
    const [onByDefault, offByDefault, disabled, switchedOff] = [
      await dead("a-default", true, true),
      await dead("b-asked", true, false),
      await dead("c-disabled", false, true),
      await dead("d-off-here", true, true),
    ];
    const conversation = await newConversation();
    await setConversationMcpServer(h.db, h.user.id, conversation.id, offByDefault.id, true);
    await setConversationMcpServer(h.db, h.user.id, conversation.id, switchedOff.id, false);
    const content = "which servers?";
    const { gate, stored } = await openTurnGateWithMessage(h.user.id, conversation.id, { role: "user", content, tokenCount: 5 }, null);
    await gate.close();
    const read = await mcpServersInUse(h.db, h.user.id, conversation.id);
    expect(stored.servers).toEqual(read);
    expect(stored.servers.map((server) => server.name)).toEqual([onByDefault.name, offByDefault.name]);
    expect(stored.servers[0]).toMatchObject({ transport: { kind: "http", headers: { "X-Key": SECRET } }, createdAt: expect.any(Date) });
    expect(disabled.enabled).toBe(false);
  });

  it("only the admin can; an edit keeps a secret sent without a value and never shows it", async () => {
    const user = { id: h.user.id, role: "user" as const };
    const input = { name: "x", transport: { kind: "stdio", command: "true" } };
    expect((await refusal(ops.createToolServer(user, input))).code).toBe("forbidden");
    expect((await refusal(ops.listToolServers(user))).code).toBe("forbidden");
    const created = await ops.createToolServer(admin(), { name: "keep", transport: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: [{ name: "X-Key", value: SECRET }] } });
    expect((await refusal(ops.deleteToolServer(user, created.id))).code).toBe("forbidden");
    expect((await refusal(ops.updateToolServer(user, { ...input, id: created.id }))).code).toBe("forbidden");
    const edited = await ops.updateToolServer(admin(), { id: created.id, name: "kept", transport: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: [{ name: "X-Key" }] } });
    expect(edited.transport).toEqual({ kind: "http", url: "http://127.0.0.1:9/mcp", headerNames: ["X-Key"] });
    expect(JSON.stringify(edited)).not.toContain(SECRET);
    const row = await h.db.mcpServer.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.transport).toMatchObject({ headers: { "X-Key": SECRET } });
    expect((await refusal(ops.createToolServer(admin(), { name: "kept", transport: { kind: "stdio", command: "true" } }))).code).toBe("conflict");
    expect((await refusal(ops.createToolServer(admin(), { name: "bad name!", transport: { kind: "stdio", command: "true" } }))).code).toBe("invalid_input");
    expect((await refusal(ops.updateToolServer(admin(), { id: created.id, name: "kept", transport: { kind: "http", url: "http://x/mcp", headers: [{ name: "New" }] } }))).code).toBe("invalid_input");
  });

  it("a user cannot see or switch servers for someone else's conversation", async () => {
    const server = await stdio("everything", EVERYTHING, ["stdio"]);
    const conversation = await newConversation();
    const stranger = { id: "00000000-0000-7000-8000-000000000000", role: "user" as const };
    expect((await refusal(ops.conversationToolServers(stranger, conversation.id))).code).toBe("not_found");
    expect((await refusal(ops.setConversationToolServer(stranger, { conversationId: conversation.id, serverId: server.id, on: false }))).code).toBe("not_found");
  });
});
