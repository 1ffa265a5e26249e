// A compaction's figures (tokens before and after, what it saves per turn) compare the
// context at ONE calibration: the replies that reported the server's counts are often the
// very messages it summarizes, and without them the "after" side would fall back to the
// safety margin — a saving that is only a change of factor.
import { beforeEach, describe, expect, it } from "vitest";
import { msg, resetSeq, setup, text, transcriptOf } from "./fakes";

beforeEach(() => resetSeq());

describe("what a compaction saves", () => {
  it("is measured before and after at the calibration the context had before it", async () => {
    const { manager } = setup({ keepRecentCount: 2 }, 100_000);
    // The server counts twice what we count; only the first reply said so.
    const first = msg("user", `first ${text(2000)}`);
    const reported = msg("assistant", `answer ${text(2000)}`, { usage: { promptTokens: 2 * first.tokens + 100, completionTokens: 10, requestTokens: first.tokens + 50 } });
    const rest = [msg("user", `second ${text(2000)}`), msg("assistant", `again ${text(2000)}`), msg("user", `third ${text(400)}`), msg("assistant", `ok ${text(400)}`), msg("user", "now?")];
    const before = transcriptOf([first, reported, ...rest]);
    expect(manager.measure(before).calibration).toEqual({ source: "reported", factor: 2 });

    const change = await manager.compactNow(before);
    const record = change.created[0]!;
    expect(record.fromSeq).toBe(first.seq);
    expect(record.toSeq).toBeGreaterThanOrEqual(reported.seq);
    // The compacted context no longer holds the report: measured alone it is back at the margin.
    expect(manager.measure(change.transcript).calibration.source).toBe("margin");
    expect(record.tokensBefore).toBe(manager.measure(before).totalTokens);
    // Our count of what the context holds after, at the factor of before.
    const after = manager.measure(change.transcript);
    const ours = after.systemTokens + after.summaryTokens + after.messageTokens + after.toolTokens;
    expect(record.tokensAfter).toBe(Math.round(ours * 2));
  });
});
