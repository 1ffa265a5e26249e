// A conversation is named after what its first message says, not how it is written.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MESSAGE_TITLE_CHARS, titleFromMessage } from "../../lib/conversation-title";

describe("titleFromMessage", () => {
  it("leaves Markdown's markers out: fences and their language, headings, quotes, list items, emphasis, links", () => {
    expect(titleFromMessage("Here is code: ```python\ndef fib(n):\n    return n\n```")).toBe("Here is code: def fib(n): return n");
    expect(titleFromMessage("## Plan for **Saturday**\n- walk the _harbour_\n- see [the museum](https://x.y/m)")).toBe("Plan for Saturday walk the harbour see the museum");
    expect(titleFromMessage("> quoted `npm test` fails on ~~Tuesday~~")).toBe("quoted npm test fails on Tuesday");
    expect(titleFromMessage("1. rename some_long_name to other_name")).toBe("rename some_long_name to other_name");
  });

  it("folds whitespace and keeps the first 60 characters, as before", () => {
    expect(titleFromMessage("  Plan the   harbour\nwalk for Saturday morning, with two stops for coffee and a bakery 🥐🥐")).toBe(
      "Plan the harbour walk for Saturday morning, with two stops f",
    );
  });

  it("is at most 60 characters of the message's words, whatever it holds", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3_000 }), (text) => {
        const title = titleFromMessage(text);
        expect(Array.from(title).length).toBeLessThanOrEqual(MESSAGE_TITLE_CHARS);
        expect(title).toBe(title.trim());
        expect(title).not.toMatch(/\s{2}|`/);
      }),
    );
  });
});
