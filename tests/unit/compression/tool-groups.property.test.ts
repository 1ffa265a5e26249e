// The compaction boundaries themselves, before any request repair: a selection (or a
// provided summary's range) takes an assistant's tool calls and all their results
// together or none of them. A cut between two results of one call is the case the
// request-level property test cannot see, since buildRequest drops the orphans.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { providedRange, selectRange, type SelectionRules } from "@/lib/compression/selection";
import type { ToolCall, Transcript, TranscriptMessage } from "@/lib/compression/types";
import { msg, resetSeq, setup, transcriptOf } from "./fakes";

type Step = { kind: "chat"; pinned: boolean; chars: number } | { kind: "tools"; calls: number; chars: number; pinnedResult: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("chat" as const), pinned: fc.integer({ min: 0, max: 7 }).map((n) => n === 0), chars: fc.integer({ min: 4, max: 400 }) }),
  fc.record({
    kind: fc.constant("tools" as const),
    calls: fc.integer({ min: 1, max: 4 }),
    chars: fc.integer({ min: 4, max: 400 }),
    // -1 (mostly): no result pinned; else the index of the pinned result.
    pinnedResult: fc.integer({ min: -6, max: 3 }),
  }),
);

/** A transcript of user/assistant exchanges, some answered through groups of several tool calls. */
function transcriptFrom(steps: Step[]): { transcript: Transcript; groups: number[][] } {
  resetSeq();
  const messages: TranscriptMessage[] = [];
  const groups: number[][] = [];
  steps.forEach((step, index) => {
    messages.push(msg("user", `question ${index} ${"q".repeat(step.chars)}`));
    if (step.kind === "chat") {
      messages.push(msg("assistant", `answer ${index} ${"a".repeat(step.chars)}`, { pinned: step.pinned }));
      return;
    }
    const calls: ToolCall[] = Array.from({ length: step.calls }, (_, call) => ({ id: `call-${index}-${call}`, name: "lookup", arguments: `{"n":${call}}` }));
    const caller = msg("assistant", "", { toolCalls: calls });
    const results = calls.map((call, position) =>
      msg("tool", `result ${call.id} ${"r".repeat(step.chars)}`, { toolCallId: call.id, toolName: call.name, pinned: position === step.pinnedResult }),
    );
    messages.push(caller, ...results);
    groups.push([caller.seq, ...results.map((result) => result.seq)]);
    messages.push(msg("assistant", `answer ${index}`));
  });
  return { transcript: transcriptOf(messages), groups };
}

const rulesArb: fc.Arbitrary<SelectionRules> = fc.record(
  {
    keep: fc.integer({ min: 0, max: 8 }),
    keepTokens: fc.integer({ min: 0, max: 400 }),
    protectLastUser: fc.boolean(),
    maxCount: fc.integer({ min: 1, max: 12 }),
    enoughTokens: fc.integer({ min: 1, max: 600 }),
    maxInputTokens: fc.integer({ min: 1, max: 800 }),
  },
  { requiredKeys: ["keep", "protectLastUser"] },
);

/** The group a range splits, if any: some of its seqs inside [fromSeq, toSeq] and some outside. */
function splitGroup(groups: number[][], fromSeq: number, toSeq: number): number[] | undefined {
  return groups.find((group) => {
    const inside = group.filter((seq) => seq >= fromSeq && seq <= toSeq).length;
    return inside > 0 && inside < group.length;
  });
}

describe("compaction boundaries keep tool groups whole", () => {
  it("every selection's fromSeq/toSeq leaves each assistant's tool calls and results on one side", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 14 }), rulesArb, (steps, rules) => {
        const { transcript, groups } = transcriptFrom(steps);
        const selection = selectRange(transcript, rules);
        if (!selection) return;
        expect(splitGroup(groups, selection.fromSeq, selection.toSeq)).toBeUndefined();
        // What is summarized is what the range covers, apart from held messages.
        const taken = new Set(selection.messages.map((message) => message.seq));
        for (const group of groups) {
          const takenHere = group.filter((seq) => taken.has(seq)).length;
          expect(takenHere === 0 || takenHere === group.length).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("a provided summary's range (everything but the newest `keep`) does not split a group either", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 14 }), fc.integer({ min: 0, max: 10 }), fc.boolean(), (steps, keep, protect) => {
        const { transcript, groups } = transcriptFrom(steps);
        const range = providedRange(transcript, keep, undefined, undefined, protect);
        if (!range) return;
        expect(splitGroup(groups, range.fromSeq, range.toSeq)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it("the compactions the engine records (automatic and manual) never split a group", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 2, maxLength: 14 }), fc.integer({ min: 0, max: 6 }), async (steps, keepRecentCount) => {
        const { transcript, groups } = transcriptFrom(steps);
        // A window small enough that the automatic trigger fires on most transcripts.
        const { manager } = setup({ keepRecentCount }, 1200);
        for (const change of [await manager.process(transcript), await manager.compactNow(transcript)]) {
          for (const record of change.created) expect(splitGroup(groups, record.fromSeq, record.toSeq)).toBeUndefined();
        }
      }),
      { numRuns: 150 },
    );
  });
});
