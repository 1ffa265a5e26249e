import { describe, expect, it } from "vitest";
import {
  summaryText,
  chatReply,
  factLines,
  loremWords,
  recallFact,
  requestKind,
  summaryKind,
  summaryMaterial,
  summaryReply,
} from "@/lib/llm/demo-server/behaviour";
import { splitWords } from "@/lib/llm/demo-server";
import type { ChatMessage } from "@/lib/compression/types";

const sys = (content: string): ChatMessage => ({ role: "system", content });
const user = (content: string): ChatMessage => ({ role: "user", content });

describe("classification", () => {
  it("uses the first system message's tag", () => {
    expect(requestKind([user("hi")])).toBe("chat");
    expect(requestKind([sys("[strata:digest]\nDigest this"), user("x")])).toBe("summary");
    expect(summaryKind([sys("[strata:structured] Summarize as JSON"), user("x")])).toBe("structured");
    expect(summaryKind([sys("[strata:custom]\n"), user("x")])).toBe("summary");
    // A tag in a later system message doesn't make it a summary request.
    expect(requestKind([sys("You are helpful"), sys("[strata:summary]"), user("x")])).toBe("chat");
    expect(summaryKind([user("x")])).toBeUndefined();
  });
});

describe("a summary request that reuses the chat request's prefix", () => {
  it("is recognised by the tag that opens its last user message, and is about the span that message counts back", () => {
    const chatPart = [sys("You are helpful"), user("FACT a=1"), user("FACT b=2"), user("FACT c=3")];
    const request = [...chatPart, user("[strata:structured]\nSummarize the 2 messages above that end 1 message before this one.")];
    expect(requestKind(request)).toBe("summary");
    expect(summaryKind(request)).toBe("structured");
    expect(summaryMaterial(request)).toEqual([user("FACT a=1"), user("FACT b=2")]);
    expect(factLines(summaryMaterial(request))).toEqual(["FACT a=1", "FACT b=2"]);
    expect(summaryMaterial([...chatPart, user("[strata:summary]\nMerge the 1 summaries above that end right before this one.")])).toEqual([user("FACT c=3")]);
    // A user typing about summaries is still chatting; a request without a trailing tag is read whole.
    expect(requestKind([...chatPart, user("Summarize the 2 messages above")])).toBe("chat");
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
    expect(recallFact([call], "a")).toBe("1");
  });

  it("recalls the last occurrence, without trailing punctuation", () => {
    expect(recallFact([sys("FACT k=1"), user("FACT k=2")], "k")).toBe("2");
    expect(recallFact([user("FACT k=blue. then FACT j=x; FACT k=red;")], "k")).toBe("red");
    expect(recallFact([user("nothing")], "k")).toBeUndefined();
  });

  it("never quotes a (truncated) fact in a summary or an echo", () => {
    const long = `${"x".repeat(50)} FACT color=blueberry-pie-with-cream`;
    const text = summaryReply("summary", [sys("[strata:summary]"), user(long)]);
    expect(factLines([user(text)])).toEqual(["FACT color=blueberry-pie-with-cream"]);
    const structured = JSON.parse(summaryReply("structured", [sys("[strata:structured]"), user(long)])) as {
      goals: string[];
      facts: string[];
    };
    expect(structured.facts).toEqual(["FACT color=blueberry-pie-with-cream"]);
    expect(factLines([user(structured.goals.join("\n"))])).toEqual([]);
    const echo = chatReply([user("Note FACT a=1 please")]);
    expect(echo.type === "text" && echo.content).toContain("you said: “Note fact a=1 please”");
  });

  it("survives summaries of summaries", () => {
    const level1 = summaryReply("summary", [sys("[strata:summary]"), user("FACT a=1"), user("FACT b=2")]);
    const digest = summaryReply("digest", [sys("[strata:digest]"), user("FACT c=3\nFACT d=4")]);
    expect(digest).toBe("FACT c=3; FACT d=4");
    const level2 = summaryReply("summary", [sys("[strata:summary]"), user(level1), user(digest)]);
    expect(factLines([user(level2)])).toEqual(["FACT a=1", "FACT b=2", "FACT c=3; FACT d=4"]);
    const messages = [sys(level2), user("RECALL a? RECALL c? RECALL d?")];
    expect(chatReply(messages)).toEqual({ type: "text", content: "a=1\nc=3\nd=4" });
  });
});

describe("demo chat replies", () => {
  it("produces exactly n words, deterministically", () => {
    expect(loremWords(0, "x")).toBe("");
    expect(loremWords(7, "seed").split(" ")).toHaveLength(7);
    expect(loremWords(50, "seed")).toBe(loremWords(50, "seed"));
    expect(loremWords(50, "seed")).not.toBe(loremWords(50, "other seed"));
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
    const text = summaryText([sys("[strata:summary]\nSummarize."), user(prompt)]);
    expect(text.split("\n").at(-1)).toBe('Digest: 4 messages (2 user, 1 assistant, 1 tool); last user message: "book it".');
  });
});

describe("demo recall through the history tools", () => {
  const search = [{ type: "function", function: { name: "search_history" } }];
  const call = (id: string, query: string) => ({
    role: "assistant" as const,
    content: null,
    tool_calls: [{ id, type: "function" as const, function: { name: "search_history", arguments: JSON.stringify({ query }) } }],
  });
  const result = (id: string, content: string) => ({ role: "tool" as const, tool_call_id: id, content });

  it("looks up a key it cannot see, one search per key, then answers from the results", () => {
    const asked = [sys("[Summary of messages 1–20 (level 1)]\nFACT a=1"), user("RECALL a? RECALL b? RECALL c?")];
    expect(chatReply(asked, search)).toEqual({ type: "tool_call", name: "search_history", arguments: '{"query":"b"}' });
    const afterB = [...asked, call("t1", "b"), result("t1", 'Matches for "b":\n#4 (user): we chose FACT b=22 then')];
    expect(chatReply(afterB, search)).toEqual({ type: "tool_call", name: "search_history", arguments: '{"query":"c"}' });
    const afterC = [...afterB, call("t2", "c"), result("t2", 'No message or summary of this conversation matches "c".')];
    expect(chatReply(afterC, search)).toEqual({ type: "text", content: "a=1\nb=22\nc=UNKNOWN" });
  });

  it("answers at once without the tool, and keeps the plain tool-result echo for other tools", () => {
    expect(chatReply([user("RECALL b?")])).toEqual({ type: "text", content: "b=UNKNOWN" });
    expect(chatReply([user("what time is it"), { role: "assistant", content: null, tool_calls: [{ id: "x", type: "function", function: { name: "current_time", arguments: "{}" } }] }, result("x", "12:00")], search)).toEqual({
      type: "text",
      content: "The tool returned: 12:00",
    });
  });
});
