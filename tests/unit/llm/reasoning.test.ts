import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { splitThinking, splitUnopenedThinking, thinkingOf, ThinkingSplitter, type ReasoningPart } from "@/lib/llm/reasoning";

/** What the streaming splitter makes of `chunks`, joined by kind. */
function streamed(chunks: string[]): { reasoning: string; text: string } {
  const splitter = new ThinkingSplitter();
  const parts: ReasoningPart[] = [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
  const of = (kind: ReasoningPart["kind"]) => parts.filter((part) => part.kind === kind).map((part) => part.text).join("");
  return { reasoning: of("reasoning").trim(), text: of("text") };
}

/** Cuts `text` at the given points (any order, repeats allowed). */
function cut(text: string, points: number[]): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  return [...at, text.length].map((end, i) => text.slice(i === 0 ? 0 : at[i - 1], end));
}

describe("splitThinking", () => {
  it.each([
    ["<think>\nWeigh it.\n</think>\n\nThe answer.", "Weigh it.", "The answer."],
    ["  <thinking>a</thinking>b", "a", "b"],
    ["<think>cut off before it closed", "cut off before it closed", ""],
    ["No thinking here. <think>not leading</think>", "", "No thinking here. <think>not leading</think>"],
    ["<think>one</think>two</think>three", "one", "two</think>three"],
    ["<thinker>not a tag</thinker>", "", "<thinker>not a tag</thinker>"],
    ["", "", ""],
  ])("%j → thinking %j, reply %j", (content, reasoning, text) => {
    expect(splitThinking(content)).toEqual({ reasoning, text });
  });
});

describe("thinking whose opening tag the template wrote", () => {
  it.each([
    ["Weigh it.\n</think>\n\nThe answer.", { reasoning: "Weigh it.", text: "The answer." }],
    ["</think>The answer.", { reasoning: "", text: "The answer." }],
    ["No tag at all.", null],
    ["<think>a</think>b", null],
    ["Say <think> then </think> literally.", null],
  ])("%j → %j", (content, split) => {
    expect(splitUnopenedThinking(content)).toEqual(split);
  });

  it("is the fallback of a reply whose content opens no block", () => {
    expect(thinkingOf("<think>a</think>b")).toEqual({ reasoning: "a", text: "b" });
    expect(thinkingOf("a</think>b")).toEqual({ reasoning: "a", text: "b" });
    expect(thinkingOf("plain")).toEqual({ reasoning: "", text: "plain" });
  });
});

describe("ThinkingSplitter", () => {
  it("holds a tag cut across chunks until it can tell, and sends thinking as it arrives", () => {
    const splitter = new ThinkingSplitter();
    expect(splitter.push(" <th")).toEqual([]);
    expect(splitter.push("ink>Weigh")).toEqual([{ kind: "reasoning", text: "Weigh" }]);
    expect(splitter.push(" it</thi")).toEqual([{ kind: "reasoning", text: " it" }]);
    expect(splitter.push("nk>\n\nThe")).toEqual([{ kind: "text", text: "The" }]);
    expect(splitter.push(" answer")).toEqual([{ kind: "text", text: " answer" }]);
    expect(splitter.end()).toEqual([]);
  });

  it("lets text that only looked like the start of a tag through whole", () => {
    const splitter = new ThinkingSplitter();
    expect(splitter.push("<th")).toEqual([]);
    expect(splitter.push("e end>")).toEqual([{ kind: "text", text: "<the end>" }]);
    const short = new ThinkingSplitter();
    expect(short.push("<t")).toEqual([]);
    expect(short.end()).toEqual([{ kind: "text", text: "<t" }]);
  });

  it("splits any reply, however the stream cuts it, as the whole reply splits", () => {
    const piece = fc.constantFrom("<think>", "</think>", "<thinking>", "</thinking>", "<th", "ink>", "</", " ", "\n", "a", "b.", "<", ">");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join("")), fc.array(fc.nat(60), { maxLength: 10 }), (content, points) => {
        const whole = splitThinking(content);
        expect(streamed(cut(content, points))).toEqual({ reasoning: whole.reasoning, text: whole.text });
      }),
      { numRuns: 2000 },
    );
  });
});
