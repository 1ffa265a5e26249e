// The request that starts a turn, one schema for both sides of the wire: the route
// (POST /api/conversations/:id/messages) and the server action validate with it, and
// the browser's composer builds its requests from the type derived here. Kept free of
// server-only imports (zod and ./inputs only) so that client code may import it.
import { z } from "zod";
import { EMPTY_MESSAGE, idSchema, messageContentSchema, messageTextSchema, seqNumber } from "./inputs";
import { attachmentIdsSchema } from "../attachments/limits";

export const TURN_KINDS = ["send", "retry", "edit", "regenerate", "continue"] as const;
export type TurnKind = (typeof TURN_KINDS)[number];

const acceptedKinds = `${TURN_KINDS.slice(0, -1)
  .map((kind) => `"${kind}"`)
  .join(", ")} or "${TURN_KINDS.at(-1)}"`;

/**
 * One turn: a new message, a retry of the last unanswered one, an edit of a past user
 * message, a new version of any finished reply, or the continuation of a stopped one.
 */
// Strict branches: a malformed editSeq or a stray field must be refused, never read as a plain message.
export const turnRequestSchema = z.discriminatedUnion(
  "kind",
  [
    // attachmentIds: uploads (POST /api/conversations/:id/attachments) whose text the message carries.
    // The text may be empty when files are attached (checked below): a message of files only.
    z.strictObject({ kind: z.literal("send"), conversationId: idSchema, content: messageTextSchema, attachmentIds: attachmentIdsSchema.optional() }),
    // `retry: true` is what requests without `kind` sent; still accepted, no longer needed.
    z.strictObject({ kind: z.literal("retry"), conversationId: idSchema, retry: z.literal(true).optional() }),
    z.strictObject({ kind: z.literal("edit"), conversationId: idSchema, editSeq: seqNumber, content: messageContentSchema }),
    z.strictObject({ kind: z.literal("regenerate"), conversationId: idSchema, regenerateSeq: seqNumber }),
    z.strictObject({ kind: z.literal("continue"), conversationId: idSchema, continueSeq: seqNumber }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? `Unknown kind of turn; use ${acceptedKinds}.` : undefined) },
).superRefine((request, ctx) => {
  if (request.kind === "send" && request.content.trim() === "" && !request.attachmentIds?.length) {
    ctx.addIssue({ code: "custom", path: ["content"], message: EMPTY_MESSAGE });
  }
});

export type TurnRequest = z.infer<typeof turnRequestSchema>;

/** A turn request as the browser sends it; the conversation is added by the caller. */
export type TurnBody = TurnRequest extends infer Request ? (Request extends TurnRequest ? Omit<Request, "conversationId"> : never) : never;

/**
 * The kind a request without `kind` means, read from the field names the API used
 * before it had one ({retry: true}, {editSeq, content}, {regenerateSeq}, {continueSeq},
 * {content}). API clients, scripts and the README's examples send these shapes, so they
 * keep working; the first name that matches decides, as the strict branch then refuses
 * any other field.
 */
function inferKind(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input) || "kind" in input) return input;
  const kind: TurnKind =
    "retry" in input ? "retry" : "editSeq" in input ? "edit" : "regenerateSeq" in input ? "regenerate" : "continueSeq" in input ? "continue" : "send";
  return { ...input, kind };
}

/** What the server parses: the discriminated union, with `kind` inferred for requests in the older shapes. */
export const turnInput = z.preprocess(inferKind, turnRequestSchema);
