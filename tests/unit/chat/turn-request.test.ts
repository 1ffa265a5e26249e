// The turn request schema both sides of the wire use: every kind parses, the shapes sent
// before requests had a `kind` still mean what they meant, and an unknown kind is refused
// with a message that names the accepted ones.
import { describe, expect, it } from "vitest";
import { parse } from "../../../lib/chat/actor";
import { TURN_KINDS, turnInput, turnRequestSchema, type TurnKind } from "../../../lib/chat/turn-request";
import { AppError } from "../../../lib/errors";

const conversationId = "4f6c1d2e-8b9a-4c3d-9e8f-7a6b5c4d3e2f";

const requests: Record<TurnKind, Record<string, unknown>> = {
  send: { kind: "send", conversationId, content: "Hello" },
  retry: { kind: "retry", conversationId },
  edit: { kind: "edit", conversationId, editSeq: 3, content: "Hello again" },
  regenerate: { kind: "regenerate", conversationId, regenerateSeq: 4 },
  continue: { kind: "continue", conversationId, continueSeq: 5 },
};

function refusal(input: unknown): AppError {
  try {
    parse(turnInput, input);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe("turn requests", () => {
  it.each(TURN_KINDS)("a %s request parses as itself", (kind) => {
    expect(turnRequestSchema.parse(requests[kind])).toEqual(requests[kind]);
    expect(parse(turnInput, requests[kind])).toEqual(requests[kind]);
  });

  it.each<[string, TurnKind, Record<string, unknown>]>([
    ["{content}", "send", { content: "Hello" }],
    ["{retry: true}", "retry", { retry: true }],
    ["{editSeq, content}", "edit", { editSeq: 3, content: "Hello again" }],
    ["{regenerateSeq}", "regenerate", { regenerateSeq: 4 }],
    ["{continueSeq}", "continue", { continueSeq: 5 }],
  ])("the older shape %s, without kind, is read as %s", (_, kind, shape) => {
    expect(parse(turnInput, { conversationId, ...shape })).toEqual({ conversationId, ...shape, kind });
  });

  it("an unknown kind is refused as invalid input naming the accepted kinds", () => {
    const error = refusal({ kind: "resend", conversationId, content: "Hello" });
    expect(error.code).toBe("invalid_input");
    expect(error.status).toBe(400);
    expect(error.message).toContain("kind");
    for (const kind of TURN_KINDS) expect(error.message).toContain(`"${kind}"`);
  });

  it("each kind keeps its strict shape: a field of another kind is refused, not ignored", () => {
    expect(refusal({ kind: "send", conversationId, content: "Hi", editSeq: 2 }).message).toMatch(/editSeq/);
    expect(refusal({ retry: false, conversationId }).code).toBe("invalid_input");
    expect(refusal({ conversationId, content: "Hi", retry: true }).message).toMatch(/content/);
  });
});
