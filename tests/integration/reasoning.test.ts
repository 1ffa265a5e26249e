// A reasoning model's thinking, judged from outside: the outside model thinks before every
// text answer, in its content (<think>…</think>, its tags cut across stream chunks; or
// only its closing tag, the template having opened it) or in `reasoning_content`. The reply keeps the answer only, the thinking is stored beside it,
// and no later request — chat or summary — carries it back to a model.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { get_encoding } from "tiktoken";
import * as ops from "@/lib/chat/operations";
import type { TurnEvent } from "@/lib/chat/events";
import { collect, newConversation, send, setupHarness } from "../support/harness";
import { startOutsideModel, type OutsideModel, type ThinkingMode } from "../support/outside-model/server";

const h = setupHarness();
let outside: OutsideModel;
const o200k = get_encoding("o200k_base");

beforeAll(async () => {
  outside = await startOutsideModel({ seed: 5 });
  process.env.OPENAI_BASE_URL = outside.url;
});
beforeEach(() => outside.reset());
afterAll(async () => {
  outside.configure({ thinking: "none" });
  await outside.close();
  o200k.free();
});

const THOUGHT = /private thought|<\/?think>/;

describe.each<ThinkingMode>(["tags", "field", "unopened"])("a model that thinks (%s)", (thinking) => {
  it("stores the answer as the reply and the thinking beside it, streams both apart, and never sends the thinking back", async () => {
    outside.configure({ thinking });
    const conversation = await newConversation();
    const events = await send(conversation.id, "Where do we meet? <<reply 12>>");
    expect(events.at(-1)?.type).toBe("done");

    const first = outside.requests().filter((request) => request.kind === "chat").at(-1)!;
    const thought = first.reply!.thought!;
    expect(thought).toMatch(/private thought \d+/);
    const [, reply] = await h.db.message.findMany({ where: { conversationId: conversation.id }, orderBy: { seq: "asc" } });
    // The answer the server wrote after its thinking: 4 × 12 characters of filler.
    expect(reply!.content).toMatch(/^[a-z ]{48}$/);
    expect(reply!.reasoning).toBe(thought);
    // Counted as the reply alone (3 + role + content, OpenAI's recipe).
    expect(reply!.tokenCount).toBe(3 + o200k.encode_ordinary("assistant").length + o200k.encode_ordinary(reply!.content).length);

    const streamed = (type: "delta" | "reasoning") =>
      events.flatMap((event) => (event.type === type ? [event.text] : [])).join("");
    if (thinking === "unopened") {
      // Nothing told the stream it was thinking until the closing tag: it showed it all; the stored reply is the answer.
      expect(streamed("delta")).toBe(`${thought}\n</think>\n\n${reply!.content}`);
      expect(streamed("reasoning")).toBe("");
    } else {
      expect(streamed("delta")).toBe(reply!.content);
      expect(streamed("reasoning").trim()).toBe(thought);
    }
    const shown = events.find((event) => event.type === "message" && event.message.role === "assistant");
    expect(shown?.type === "message" && shown.message.role === "assistant" ? shown.message.reasoning : null).toBe(thought);

    // An export carries it, and an import of that file keeps it beside the same reply.
    const exported = await ops.exportConversation(h.user, { conversationId: conversation.id, format: "json" });
    const imported = await ops.importConversation(h.user, JSON.parse(exported.body) as unknown);
    const copy = await h.db.message.findFirstOrThrow({ where: { conversationId: imported.id, role: "assistant" } });
    expect([copy.content, copy.reasoning]).toEqual([reply!.content, thought]);

    await send(conversation.id, "And when? <<reply 5>>");
    const second = outside.requests().filter((request) => request.kind === "chat").at(-1)!;
    const sent = (second.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(sent.filter((m) => m.role === "assistant").map((m) => m.content)).toEqual([reply!.content]);
    expect(JSON.stringify(sent)).not.toMatch(THOUGHT);
  });

  it("keeps a summary written by a thinking model free of its thinking", async () => {
    outside.configure({ thinking, summaryMode: "extractive" });
    const conversation = await newConversation();
    for (const city of ["Lisbon", "Porto", "Braga", "Faro", "Evora", "Coimbra"]) await send(conversation.id, `We drove to ${city} on day 4. <<reply 30>>`);
    const result = await ops.compactNow(h.user, { conversationId: conversation.id });
    expect(result.compactions.length).toBe(1);
    const summaryCall = outside.requests().filter((request) => request.kind === "summary").at(-1)!;
    // The server did think while it summarized…
    expect(summaryCall.reply!.thought).toMatch(/private thought \d+/);
    // …and the summary holds what it wrote after: the trip, not the thought.
    const [compaction] = await h.db.compaction.findMany({ where: { conversationId: conversation.id } });
    expect(compaction!.summary).toMatch(/Lisbon/);
    expect(compaction!.summary).not.toMatch(THOUGHT);
    // Nor does the summary request carry the earlier replies' thinking.
    expect(JSON.stringify(summaryCall.body)).not.toMatch(THOUGHT);
  });
});

describe("a reply stopped while its model is still thinking", () => {
  it("keeps the thinking with no answer, sends no empty reply to the model, and Continue answers after it, keeping both thoughts", async () => {
    // The server pauses between its thinking and its answer: the user stops it in between.
    outside.configure({ thinking: "field", thinkingPauseMs: 5_000 });
    const conversation = await newConversation();
    let watched = "";
    for await (const event of await ops.startTurn(h.user, { conversationId: conversation.id, content: "Where do we meet? <<reply 12>>" })) {
      expect(event.type).not.toBe("delta");
      if (event.type !== "reasoning") continue;
      watched += event.text;
      // The whole thought has arrived (its sentence ends so): stop.
      if (watched.trim().endsWith(").")) void ops.stop(h.user, conversation.id);
    }
    const thought = outside.requests().filter((request) => request.kind === "chat").at(-1)!.reply!.thought!;
    expect(watched.trim()).toBe(thought);
    const rows = () => h.db.message.findMany({ where: { conversationId: conversation.id }, orderBy: { seq: "asc" } });
    const [, stopped] = await rows();
    expect([stopped!.role, stopped!.status, stopped!.content, stopped!.reasoning]).toEqual(["assistant", "stopped", "", thought]);
    // It is never sent, so it counts nothing toward the context.
    expect(stopped!.tokenCount).toBe(0);

    // Continue: the request ends with the user's message (no empty assistant message, no thought), and the answer joins the reply.
    outside.configure({ thinkingPauseMs: 0 });
    const continued = await collect(await ops.startTurn(h.user, { conversationId: conversation.id, continueSeq: stopped!.seq }));
    expect(continued.at(-1)?.type).toBe("done");
    const request = outside.requests().filter((entry) => entry.kind === "chat").at(-1)!;
    const sent = (request.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(sent.map((m) => m.role)).toEqual(["system", "user"]);
    expect(JSON.stringify(sent)).not.toMatch(THOUGHT);
    // The continuation thought again: its thinking follows the first, which stays.
    const again = request.reply!.thought!;
    expect(again).not.toBe(thought);
    const [, reply] = await rows();
    expect(reply!.content).toMatch(/^[a-z ]{48}$/);
    expect([reply!.status, reply!.reasoning]).toEqual(["complete", `${thought}\n\n${again}`]);
    expect(reply!.tokenCount).toBe(3 + o200k.encode_ordinary("assistant").length + o200k.encode_ordinary(reply!.content).length);
    outside.configure({ thinking: "none" });
  });
});

describe("another view of a conversation while its model thinks", () => {
  it("gets the thinking so far, then the rest of it and the answer, as the sending view does", async () => {
    outside.configure({ thinking: "field" });
    const conversation = await newConversation();
    let watched: Promise<TurnEvent[]> | undefined;
    for await (const event of await ops.startTurn(h.user, { conversationId: conversation.id, content: "Where do we meet? <<reply 12>>" })) {
      // A second view opens after the first piece of thinking: it gets that piece as what the
      // turn has done so far, and the rest as it comes (its first event is read before the
      // sending view reads on, so from then on it misses nothing).
      if (event.type === "reasoning" && !watched) {
        const stream = await ops.watchRunningTurn(h.user, conversation.id);
        const first = await stream.next();
        watched = collect(stream).then((rest) => [first.value as TurnEvent, ...rest]);
      }
    }
    expect(watched).toBeDefined();
    const events = await watched!;
    const thought = outside.requests().filter((request) => request.kind === "chat").at(-1)!.reply!.thought!;
    const joined = (type: "delta" | "reasoning") => events.flatMap((event) => (event.type === type ? [event.text] : [])).join("");
    expect(joined("reasoning").trim()).toBe(thought);
    const [, reply] = await h.db.message.findMany({ where: { conversationId: conversation.id }, orderBy: { seq: "asc" } });
    expect(joined("delta")).toBe(reply!.content);
    // Drawn in the sending view's order: the reply starts, its thinking, then its answer.
    const kinds = events.map((event) => event.type).filter((type) => ["assistant_start", "reasoning", "delta"].includes(type));
    expect(kinds.indexOf("assistant_start")).toBe(0);
    expect(kinds.lastIndexOf("reasoning")).toBeLessThan(kinds.indexOf("delta"));
    outside.configure({ thinking: "none", thinkingPauseMs: 0 });
  });
});
