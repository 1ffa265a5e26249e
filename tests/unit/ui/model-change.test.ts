// The "model changed" line: where the timeline draws it (derived from the model each
// reply stores) and what it says.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { modelChanges, shortWindow } from "@/components/timeline/model-change";
import { ModelChangeLine } from "@/components/timeline/ModelChangeLine";
import type { CompactionView, MessageView, TimelineItem } from "@/lib/views";

const reply = (seq: number, model: string | null): TimelineItem => ({ type: "message", message: { id: `m${seq}`, seq, role: "assistant", model, content: "" } as unknown as MessageView });
const user = (seq: number): TimelineItem => ({ type: "message", message: { id: `m${seq}`, seq, role: "user", model: null, content: "" } as unknown as MessageView });
const summary = (fromSeq: number, toSeq: number): TimelineItem => ({ type: "compaction", compaction: { id: `c${fromSeq}`, kind: "summary", fromSeq, toSeq } as CompactionView });

describe("model changes in the timeline", () => {
  it("marks each reply written by another model than the reply before it, across user messages and summaries", () => {
    const items = [summary(1, 4), user(5), reply(6, "gpt-4o-mini"), user(7), reply(8, "gpt-4o-mini"), user(9), reply(10, "gpt-4.1"), reply(11, null), user(12), reply(13, "gpt-4o-mini")];
    expect([...modelChanges(items)]).toEqual([
      ["m10", "gpt-4.1"],
      ["m13", "gpt-4o-mini"],
    ]);
  });

  it("the first reply loaded is no change, nor is a conversation with one model", () => {
    expect(modelChanges([user(1), reply(2, "gpt-4.1"), user(3), reply(4, "gpt-4.1")]).size).toBe(0);
  });

  it("says the model and its window", () => {
    // No conversation open, so no meter: the built-in table's window.
    const line = createElement(QueryClientProvider, { client: new QueryClient() }, createElement(ModelChangeLine, { model: "gpt-4.1" }));
    const text = renderToStaticMarkup(line).replace(/<[^>]+>/g, "");
    expect(text).toBe("Model changed to gpt-4.1 · window 1M");
    expect([8192, 128_000, 131_072, 200_000, 32_768].map(shortWindow)).toEqual(["8K", "128K", "128K", "200K", "32K"]);
  });
});
