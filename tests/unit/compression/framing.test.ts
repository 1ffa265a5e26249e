import { beforeEach, describe, expect, it } from "vitest";
import { FAN_OUT } from "@/lib/compression/budget";
import { conversationHeader, FOLD_INTRO, isFraming, MERGE_INTRO, NOTHING_KEPT, summaryLabel, turnHeader, withoutFraming } from "@/lib/compression/framing";
import type { CompactionRecord, SummaryRequest, Transcript } from "@/lib/compression/types";
import { msg, resetSeq, setup, text, transcriptOf } from "./fakes";

beforeEach(() => resetSeq());

const countMode = { triggerMode: "count" as const, countThreshold: 6, countWindow: 4, countKeepRecent: 2, countSummaryMaxChars: 100_000 };

/**
 * A model that does what the prompt says about specifics a little too well: under a
 * "Summary:" heading it copies every line of the material that holds a number, the
 * request's own range headers included (labels like `[user #3]:` it leaves out), each
 * line once.
 */
function copyingModel(request: SummaryRequest): string {
  const material = request.messages
    .slice(1)
    .map((message) => message.content ?? "")
    .join("\n");
  const lines = material
    .split("\n")
    .map((line) => line.replace(/^(?:\s*\[[^\]]*\]:?)+\s*/, "").trim())
    .filter((line) => /\d/.test(line));
  return `Summary: ${[...new Set(lines)].join("\n")}`;
}

describe("the request's framing copied by a model", () => {
  it("is recognised in the forms the engine writes it", () => {
    for (const line of [conversationHeader(1, 12), turnHeader(3, 4), summaryLabel(1, 2_000, 7), FOLD_INTRO, MERGE_INTRO, "---", NOTHING_KEPT]) {
      expect(isFraming(line)).toBe(true);
    }
    expect(isFraming("## Conversation to summarize (messages 13-26)")).toBe(true);
    // A model that writes one sentence a line copies an introduction sentence by sentence.
    expect(isFraming("Earlier summaries, oldest first.")).toBe(true);
    expect(isFraming("Earlier summaries, oldest first, were about the budget.")).toBe(false);
    expect(isFraming("We summarized messages 1–12 yesterday.")).toBe(false);
    expect(isFraming("Project Falcon-3 uses port 4021 in production.")).toBe(false);
  });

  it("is dropped from a summary, with a leading Summary: heading however often repeated", () => {
    const copied = ["Summary: Summary: Summary: Conversation to summarize (messages 1–12):", "Project Falcon-0 uses port 4000.", conversationHeader(13, 26), "---", "Project Falcon-1 uses port 4007."].join("\n");
    expect(withoutFraming(copied)).toBe("Project Falcon-0 uses port 4000.\nProject Falcon-1 uses port 4007.");
    // A heading that says something is content, and so is "Summary:" further down.
    expect(withoutFraming("Summary of the deploy: Frankfurt, key in slot 7413.")).toBe("Summary of the deploy: Frankfurt, key in slot 7413.");
    expect(withoutFraming("**Summary:**\nWe chose plan A.\nSummary: it works.")).toBe("We chose plan A.\nSummary: it works.");
  });

  it("does not pile up through folds and merges: stored summaries hold what the conversation said", async () => {
    const ctx = setup({ ...countMode, carryDetails: false }, 1_000_000);
    ctx.summarizer.respond = copyingModel;
    let transcript: Transcript = transcriptOf([]);
    const created: CompactionRecord[] = [];
    for (let round = 0; round < FAN_OUT * 3; round++) {
      const added = [
        msg("user", `Service Falcon-${round} listens on port ${4000 + round}.\n${text(300)}`),
        msg("assistant", `ok ${text(300)}`),
        msg("user", `more ${text(300)}`),
        msg("assistant", `fine ${text(300)}`),
      ];
      transcript = { ...transcript, messages: [...transcript.messages, ...added], totalMessageCount: transcript.totalMessageCount + 4 };
      const change = await ctx.manager.process(transcript);
      created.push(...change.created);
      transcript = change.transcript;
    }
    // The run folded or merged, so summaries were summarized again.
    expect(created.some((c) => c.level >= 2)).toBe(true);
    for (const record of created) {
      const lines = record.summary.split("\n");
      expect(lines.filter(isFraming)).toEqual([]);
      expect(record.summary).not.toMatch(/^Summary:|Conversation to summarize/m);
      // Nothing but the planted sentences.
      expect(lines.every((line) => /^Service Falcon-\d+ listens on port \d+\.$/.test(line))).toBe(true);
    }
  });

  it("leaves a marker, not an empty summary, when the model wrote nothing else", async () => {
    const { manager, summarizer } = setup({ ...countMode, carryDetails: false }, 1_000_000);
    summarizer.respond = (request) => `Summary: ${(request.messages[1]?.content ?? "").split("\n").find((line) => line.startsWith("Conversation"))}`;
    const messages = Array.from({ length: 8 }, (_, i) => msg(i % 2 ? "assistant" : "user", text(300, "chat")));
    const change = await manager.process(transcriptOf(messages));
    expect(change.created[0]!.summary).toBe(NOTHING_KEPT);
  });

  it("is not a turn's digest line", async () => {
    const { manager, summarizer } = setup({ ...countMode, countWindow: 4, strategy: "turn_digest" }, 1_000_000);
    summarizer.respond = copyingModel;
    const messages = [msg("user", `Deploy to Frankfurt at 7:30.\n${text(300)}`), msg("assistant", text(300)), msg("user", text(300)), msg("assistant", text(300))];
    const change = await manager.process(transcriptOf([...messages, ...Array.from({ length: 4 }, () => msg("user", text(300)))]));
    expect(change.created[0]!.summary.split("\n")[0]).toBe("1. (#1–#2) Deploy to Frankfurt at 7:30.");
  });
});

describe("the background summary copied by a model", () => {
  it("is not stored again in the next summary, unless its own messages say it again", async () => {
    const { manager, summarizer } = setup({ ...countMode, carryDetails: false }, 1_000_000);
    summarizer.respond = copyingModel;
    const first = [msg("user", `Service Falcon-1 listens on port 4001.\n${text(300)}`), msg("assistant", text(300)), msg("user", `Service Falcon-2 listens on port 4002.\n${text(300)}`), msg("assistant", text(300))];
    let transcript = transcriptOf([...first, msg("user", text(300)), msg("assistant", text(300))]);
    transcript = (await manager.process(transcript)).transcript;
    const background = transcript.compactions[0]!;
    expect(background.summary).toBe("Service Falcon-1 listens on port 4001.\nService Falcon-2 listens on port 4002.");
    const next = [msg("user", `Service Falcon-3 listens on port 4003.\n${text(300)}`), msg("assistant", `Service Falcon-2 listens on port 4002.\n${text(300)}`), msg("user", text(300)), msg("assistant", text(300))];
    transcript = { ...transcript, messages: [...transcript.messages, ...next], totalMessageCount: transcript.totalMessageCount + next.length };
    const change = await manager.process(transcript);
    const written = change.created.at(-1)!;
    // The model was shown the background (and copied it), but the stored summary has only its own range.
    expect(summarizer.calls.at(-1)!.messages[1]!.content).toContain("Service Falcon-1 listens on port 4001.");
    expect(written.childIds).toEqual([]);
    expect(written.summary).toBe("Service Falcon-2 listens on port 4002.\nService Falcon-3 listens on port 4003.");
  });
});
