// When a server's reported prompt count says it cut the request (it kept less than it
// was sent), and when it only counts differently: the edges of the rule.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calibrationOf, serverCutWindow } from "../../../lib/compression/measure";
import type { TranscriptMessage } from "../../../lib/compression/types";

describe("serverCutWindow", () => {
  it("a count under half of what was sent is a cut, above 1,024 tokens", () => {
    expect(serverCutWindow({ promptTokens: 4096, requestTokens: 9000 })).toBe(4096);
    expect(serverCutWindow({ promptTokens: 1000, requestTokens: 9000 })).toBeNull();
    // A tokenizer that counts a third fewer is no cut.
    expect(serverCutWindow({ promptTokens: 6000, requestTokens: 9000 })).toBeNull();
  });

  it("a count that does not grow while clearly more was sent is a cut; growth, or a smaller request after a compaction, is not", () => {
    const before = { promptTokens: 2950, requestTokens: 3000 };
    expect(serverCutWindow({ promptTokens: 2950, requestTokens: 3300 }, before)).toBe(2950);
    expect(serverCutWindow({ promptTokens: 2900, requestTokens: 3300 }, before)).toBe(2900);
    // It counted the new message: no cut, whatever its tokenizer.
    expect(serverCutWindow({ promptTokens: 3050, requestTokens: 3300 }, before)).toBeNull();
    // A compaction made the request smaller: its count fell with it.
    expect(serverCutWindow({ promptTokens: 1800, requestTokens: 1850 }, before)).toBeNull();
    // Barely more sent (under 5%): a wobble of counts, not evidence.
    expect(serverCutWindow({ promptTokens: 2950, requestTokens: 3100 }, before)).toBeNull();
  });
});

describe("calibrationOf", () => {
  const reply = (promptTokens: number, requestTokens: number, seq: number): TranscriptMessage => ({
    seq,
    role: "assistant",
    content: "a",
    tokens: 3,
    pinned: false,
    usage: { promptTokens, completionTokens: 5, requestTokens },
  });

  it("takes its factor from the newest reply the server read whole, not from a cut one", () => {
    const messages = [reply(2200, 2000, 2), reply(3300, 3000, 4), reply(3250, 3400, 6)];
    expect(calibrationOf(messages)).toEqual({ source: "reported", factor: 1.1 });
    expect(calibrationOf(messages.slice(0, 2))).toEqual({ source: "reported", factor: 1.1 });
  });

  it("is the newest report that is not a cut, each judged by the report before it, whatever lies between them", () => {
    // Written out here as the rule reads, over every report at once.
    const expected = (messages: TranscriptMessage[]) => {
      const reports = messages.flatMap((m) => (m.role === "assistant" && m.usage && m.usage.requestTokens > 0 ? [m.usage] : []));
      for (let index = reports.length - 1; index >= 0; index--) {
        const factor = reports[index]!.promptTokens / reports[index]!.requestTokens;
        if (factor > 0 && serverCutWindow(reports[index]!, reports[index - 1]) === null) return { source: "reported", factor: Math.min(3, Math.max(0.5, factor)) };
      }
      return { source: "margin", factor: 1.2 };
    };
    const message = fc.oneof(
      fc.record({ prompt: fc.integer({ min: 0, max: 20_000 }), request: fc.integer({ min: 0, max: 20_000 }) }).map(({ prompt, request }) => ({ kind: "reply" as const, prompt, request })),
      fc.constant({ kind: "user" as const, prompt: 0, request: 0 }),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (drafts) => {
        const messages = drafts.map((draft, index): TranscriptMessage =>
          draft.kind === "reply" ? reply(draft.prompt, draft.request, index + 1) : { seq: index + 1, role: "user", content: "q", tokens: 2, pinned: false },
        );
        expect(calibrationOf(messages)).toEqual(expected(messages));
      }),
      { numRuns: 500, seed: 11 },
    );
  });
});
