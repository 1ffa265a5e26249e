// Tool servers that answer with far too much or not at all, against the real fault
// server (tests/support/mcp-fault-server) over stdio: slow by nature, so here rather
// than in the integration suite.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as ops from "../../lib/chat/operations";
import { newConversation } from "../support/harness";
import { mcpPool } from "../../lib/mcp/pool";
import { MAX_RESULT_CHARS } from "../../lib/mcp/results";
import { startScriptedModel, toolResults, type ScriptedModel } from "../support/scripted-tool-model";
import { send, setupHarness } from "./support/harness";

const h = setupHarness();
const FAULTS = path.resolve("tests/support/mcp-fault-server/server.mjs");
let model: ScriptedModel;

beforeAll(async () => {
  model = await startScriptedModel();
  process.env.OPENAI_BASE_URL = model.url;
  await ops.createToolServer({ id: h.user.id, role: "admin" }, { name: "faults", transport: { kind: "stdio", command: process.execPath, args: [FAULTS] }, onByDefault: true });
});
afterAll(async () => {
  delete process.env.STRATA_TOOL_TIMEOUT_MS;
  await mcpPool().closeAll();
  await model.close();
});

describe("tool server faults", () => {
  it("a 10 MB result is stored cut to the bound with a note, and the model reads exactly what is stored", async () => {
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "faults__big", args: { mb: 10 } }] }];
    const events = await send(conversation.id, "Big.");
    const [result] = toolResults(events);
    expect(result).toMatchObject({ toolOutcome: "done" });
    expect(result!.content.length).toBeGreaterThan(MAX_RESULT_CHARS);
    expect(result!.content.length).toBeLessThan(MAX_RESULT_CHARS + 100);
    expect(result!.content).toMatch(/\n\[… result cut: \d+ more characters were not kept\]$/);
    const stored = await h.db.message.findFirstOrThrow({ where: { conversationId: conversation.id, role: "tool" } });
    expect(stored.content).toBe(result!.content);
    expect(events.at(-1)?.type).toBe("done");
  });

  it("a server that never answers: the call fails at the time limit and the turn goes on", async () => {
    process.env.STRATA_TOOL_TIMEOUT_MS = "2000";
    const conversation = await newConversation();
    model.steps = [{ calls: [{ name: "faults__hang", args: {}, id: "h" }, { name: "faults__ok", args: {}, id: "o" }] }];
    const events = await send(conversation.id, "Hang.");
    const [hung, ok] = toolResults(events);
    expect(hung).toMatchObject({ toolOutcome: "failed" });
    expect(hung!.content).toMatch(/did not answer within 2 s/);
    expect(ok).toMatchObject({ toolOutcome: "done", content: "fine" });
    expect(events.at(-1)?.type).toBe("done");
  });
});
