// When a server's reported prompt count says it cut the request (it kept less than it
// was sent), and when it only counts differently: the edges of the rule.
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
});
