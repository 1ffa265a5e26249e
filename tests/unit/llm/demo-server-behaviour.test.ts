import { describe, expect, it } from "vitest";
import { summaryText, chatReply, factLines, requestKind, summaryKind, summaryMaterial, summaryReply, type DemoRequest } from "@/lib/llm/demo-server/behaviour";
import { splitWords } from "@/lib/llm/demo-server";
import { buildPromptMessages, buildSharedMessages, DEFAULT_SUMMARY_INSTRUCTIONS, DIGEST_INSTRUCTIONS, MERGE_INSTRUCTIONS, STRUCTURED_INSTRUCTIONS } from "@/lib/compression/prompts";
import { sharedMergeLine, sharedRangeLine } from "@/lib/compression/framing";
import { TOOL_DEFINITIONS } from "@/lib/chat/tool-set";
import type { ChatMessage } from "@/lib/compression/types";

const sys = (content: string): ChatMessage => ({ role: "system", content });
const user = (content: string): ChatMessage => ({ role: "user", content });
const chat = (messages: ChatMessage[]): DemoRequest => ({ messages, tools: TOOL_DEFINITIONS });

// The requests the engine really sends, built by its own prompt builders: the demo must read them as a model would.
const compact = (kind: "summary" | "structured" | "digest", instructions: string, body = "Conversation to summarize (messages 1–2):\n[user #1]: FACT a=1") =>
  buildPromptMessages({ kind, instructions, body });
const anchor = { role: "user", text: "x" };

describe("classification of the engine's stand-alone requests", () => {
  it("reads the instructions: a summary, JSON for structured, one line for a digest", () => {
    expect(summaryKind({ messages: compact("summary", DEFAULT_SUMMARY_INSTRUCTIONS) })).toBe("summary");
    expect(summaryKind({ messages: compact("summary", MERGE_INSTRUCTIONS) })).toBe("summary");
    expect(summaryKind({ messages: compact("structured", STRUCTURED_INSTRUCTIONS), json: true })).toBe("structured");
    expect(summaryKind({ messages: compact("digest", DIGEST_INSTRUCTIONS) })).toBe("digest");
    // A custom prompt replaces the instructions; the title and cite requests still say what is wanted.
    expect(summaryKind({ messages: compact("summary", "Write like a pirate.") })).toBe("summary");
  });

  it("takes a chat for a chat: tools offered, a longer conversation, or no instruction to condense", () => {
    expect(requestKind({ messages: [user("hi")] })).toBe("chat");
    expect(requestKind({ messages: [sys("You are helpful."), user("Please summarize this article: …")] })).toBe("chat");
    expect(requestKind(chat([sys("You summarize articles."), user("Here is one")]))).toBe("chat");
    expect(requestKind({ messages: [sys("You summarize articles."), user("one"), { role: "assistant", content: "ok" }, user("two")] })).toBe("chat");
    expect(summaryKind({ messages: [user("x")] })).toBeUndefined();
  });
});

describe("a summary request that reuses the chat request's prefix", () => {
  const chatPart = [sys("You are helpful"), user("FACT a=1"), user("FACT b=2"), user("FACT c=3")];
  const rangeLine = sharedRangeLine({ count: 2, after: 1, first: anchor, last: anchor, fromSeq: 1, toSeq: 2, folded: [] });
  const mergeLine = sharedMergeLine({ count: 1, after: 0, first: anchor, last: anchor, children: [{ fromSeq: 1, toSeq: 3, level: 1 }] });

  it("is recognised by the instruction that closes it, and is about the span that instruction counts back", () => {
    const summary = buildSharedMessages(chatPart, rangeLine, { kind: "summary", instructions: DEFAULT_SUMMARY_INSTRUCTIONS });
    expect(summaryKind(chat(summary))).toBe("summary");
    const structured = buildSharedMessages(chatPart, rangeLine, { kind: "structured", instructions: STRUCTURED_INSTRUCTIONS });
    expect(summaryKind({ ...chat(structured), json: true })).toBe("structured");
    expect(summaryMaterial(structured)).toEqual([user("FACT a=1"), user("FACT b=2")]);
    expect(factLines(summaryMaterial(structured))).toEqual(["FACT a=1", "FACT b=2"]);
    const merge = buildSharedMessages(chatPart, mergeLine, { kind: "summary", instructions: MERGE_INSTRUCTIONS });
    expect(summaryKind(chat(merge))).toBe("summary");
    expect(summaryMaterial(merge)).toEqual([user("FACT c=3")]);
  });

  it("leaves a user who talks about summaries chatting, and reads a request without that instruction whole", () => {
    expect(requestKind(chat([...chatPart, user("Summarize the 2 messages above")]))).toBe("chat");
    expect(requestKind(chat([...chatPart, user(`Thanks. ${rangeLine}`)]))).toBe("chat");
    expect(summaryMaterial(chatPart)).toBe(chatPart);
  });
});

describe("facts", () => {
  it("takes FACT lines like the engine: from FACT to the end of the line, deduped, first-appearance order", () => {
    const messages = [
      user("FACT name=John Smith.\n[user #3]: FACT color=blue"),
      sys("Summary.\nFACT color=blue\n- FACT pet=cat"),
      user("no fact here, FACT without equals, FACT =x"),
    ];
    expect(factLines(messages)).toEqual(["FACT name=John Smith.", "FACT color=blue", "FACT pet=cat"]);
  });

  it("reads facts out of tool-call argument strings", () => {
    const call: ChatMessage = {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "compress_context", arguments: JSON.stringify({ summary: "S\nFACT a=1\nFACT b=2" }) },
        },
      ],
    };
    expect(factLines([call])).toEqual(["FACT a=1", "FACT b=2"]);
  });

  it("never quotes a (truncated) fact in a summary or an echo", () => {
    const long = `${"x".repeat(50)} FACT color=blueberry-pie-with-cream`;
    const text = summaryReply("summary", [sys("Summarize."), user(long)]);
    expect(factLines([user(text)])).toEqual(["FACT color=blueberry-pie-with-cream"]);
    const structured = JSON.parse(summaryReply("structured", [sys("Summarize as JSON."), user(long)])) as {
      goals: string[];
      facts: string[];
    };
    expect(structured.facts).toEqual(["FACT color=blueberry-pie-with-cream"]);
    expect(factLines([user(structured.goals.join("\n"))])).toEqual([]);
    const echo = chatReply([user("Note FACT a=1 please")]);
    expect(echo.type === "text" && echo.content).toContain("you said: “Note fact a=1 please”");
  });

  it("survives summaries of summaries", () => {
    const level1 = summaryReply("summary", [sys("Summarize."), user("FACT a=1"), user("FACT b=2")]);
    const digest = summaryReply("digest", [sys("Condense into one line."), user("FACT c=3\nFACT d=4")]);
    expect(digest).toBe("FACT c=3; FACT d=4");
    const level2 = summaryReply("summary", [sys("Summarize."), user(level1), user(digest)]);
    expect(factLines([user(level2)])).toEqual(["FACT a=1", "FACT b=2", "FACT c=3; FACT d=4"]);
  });
});

describe("demo chat replies", () => {
  it("has no test triggers: REPLY_WORDS, RECALL and COMPRESS_CONTEXT are just words to echo", () => {
    const compress = [{ type: "function", function: { name: "compress_context" } }, { type: "function", function: { name: "search_history" } }];
    for (const text of ["REPLY_WORDS=30", "RECALL a?", "COMPRESS_CONTEXT now"]) {
      const reply = chatReply([user("FACT a=1"), user(text)], compress);
      expect(reply.type === "text" && reply.content).toMatch(/^\*\*Demo model\*\* — you said/);
    }
  });

  it("echoes a tool's result", () => {
    const call = { role: "assistant" as const, content: null, tool_calls: [{ id: "x", type: "function" as const, function: { name: "current_time", arguments: "{}" } }] };
    expect(chatReply([user("RECALL b? what time is it"), call, { role: "tool", tool_call_id: "x", content: "12:00" }])).toEqual({ type: "text", content: "The tool returned: 12:00" });
  });

  it("keeps the echo under 120 words even for long input", () => {
    const reply = chatReply([user("word ".repeat(500))]);
    expect(reply.type).toBe("text");
    if (reply.type === "text") {
      expect(reply.content.startsWith("**Demo model** — you said:")).toBe(true);
      expect(reply.content.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(120);
    }
  });

  it("only calls tools that are offered", () => {
    expect(chatReply([user("what time is it?")]).type).toBe("text");
    const tools = [{ type: "function", function: { name: "current_time" } }];
    expect(chatReply([user("What time is it?")], tools)).toEqual({ type: "tool_call", name: "current_time", arguments: "{}" });
    expect(chatReply([user("/time")], tools).type).toBe("tool_call");
  });

  it("uses a tool server's file tools, whatever the server is called, only when offered", () => {
    const tools = ["docs__list_directory", "docs__read_text_file", "mem__read_graph"].map((name) => ({ type: "function", function: { name } }));
    expect(chatReply([user("Please list the files")], tools)).toEqual({ type: "tool_call", name: "docs__list_directory", arguments: '{"path":"."}' });
    expect(chatReply([user("read notes.md please")], tools)).toEqual({ type: "tool_call", name: "docs__read_text_file", arguments: '{"path":"notes.md"}' });
    expect(chatReply([user("Can you open `sub/todo.md`?")], tools)).toEqual({ type: "tool_call", name: "docs__read_text_file", arguments: '{"path":"sub/todo.md"}' });
    expect(chatReply([user("What do you remember?")], tools)).toEqual({ type: "tool_call", name: "mem__read_graph", arguments: "{}" });
    expect(chatReply([user("read notes.md")]).type).toBe("text");
    expect(chatReply([user("read the room")], tools).type).toBe("text");
  });
});

describe("splitWords", () => {
  it("concatenates back to the original text", () => {
    for (const text of ["", "one", "  lead and trail  ", "a\nb\n\nc d e f g", "**Demo** — x"]) {
      expect(splitWords(text, 2).join("")).toBe(text);
    }
    expect(splitWords("a b c d e", 2)).toEqual(["a b", " c d", " e"]);
  });
});

describe("summary digest", () => {
  it("describes the transcript inside a summary prompt, not the prompt itself", () => {
    const prompt = "Conversation to summarize (messages 1–4):\n---\n[user #1]: plan the trip\n[assistant #2]: sure\n[assistant #2] tool_call x({})\n[tool result #3 x]: ok\n[user #4]: book it\n---";
    const text = summaryText([sys("Summarize."), user(prompt)]);
    expect(text.split("\n").at(-1)).toBe('Digest: 4 messages (2 user, 1 assistant, 1 tool); last user message: "book it".');
  });
});
