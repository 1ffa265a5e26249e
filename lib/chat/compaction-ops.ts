// Compression the user sees or asks for: the context meter, the Activity panel,
// "Compress now" with its preview, and applying a previewed summary.
import { getDb } from "../db/client";
import { listAttempts } from "../db/compactions";
import { listUndone } from "../db/undo";
import { readSettings } from "../db/settings";
import { attemptRecordToView } from "../db/mappers";
import { activeTranscript, compressionManager, contextMeter, pendingBackgroundWork, compactUnderLock, type AppliedChange } from "./compressor";
import { applyProposalInput, compactInput, idSchema } from "./inputs";
import { countMessageSend } from "./send-limit";
import type { CompactionProposal } from "../compression/types";
import type { ActivityView, AttemptView, CompactionView } from "../views";
import { type Actor, parse } from "./actor";

export async function meter(actor: Actor, conversationId: unknown) {
  return contextMeter(actor.id, parse(idSchema, conversationId));
}

/** The Activity panel: compaction attempts and the background compaction not finished yet. */
export async function attempts(actor: Actor, conversationId: unknown): Promise<ActivityView> {
  const id = parse(idSchema, conversationId);
  // listAttempts checks ownership first, so another user's id never reaches the queue.
  const attempts = await listAttempts(await getDb(), actor.id, id);
  return { background: await pendingBackgroundWork(id), attempts, undone: await listUndone(await getDb(), id) };
}

export type CompactResult = {
  compactions: CompactionView[];
  failed: AttemptView[];
  proposal: Pick<CompactionProposal, "summary" | "fromSeq" | "toSeq" | "replacedTokens" | "proposedTokens"> | null;
};

function compactResult(applied: AppliedChange): CompactResult {
  return {
    compactions: applied.compactions,
    failed: applied.attempts.filter((a) => a.outcome !== "applied").map((a) => attemptRecordToView(a)),
    proposal: null,
  };
}

/** "Compress now" and `/compact <instructions>`; with `preview` it only proposes a summary. */
export async function compactNow(actor: Actor, input: unknown): Promise<CompactResult> {
  const { conversationId, instructions, preview } = parse(compactInput, input);
  const options = { ...(instructions ? { instructions } : {}), ...(preview ? { preview } : {}) };
  const { settings } = await readSettings(await getDb(), actor.id, conversationId);
  // Counted like a message (a summary costs as much as a reply); the settings read first
  // answers "not found" for another user's conversation.
  await countMessageSend(actor.id);
  if (preview) {
    const transcript = await activeTranscript(actor.id, conversationId, settings);
    const result = await compressionManager().compactNow(transcript, settings, options);
    return {
      compactions: [],
      failed: result.attempts.filter((a) => a.outcome !== "applied").map((a) => attemptRecordToView(a)),
      proposal: result.proposal
        ? {
            summary: result.proposal.summary,
            fromSeq: result.proposal.fromSeq,
            toSeq: result.proposal.toSeq,
            replacedTokens: result.proposal.replacedTokens,
            proposedTokens: result.proposal.proposedTokens,
          }
        : null,
    };
  }
  return compactResult(
    await compactUnderLock(actor.id, conversationId, settings, (transcript) => compressionManager().compactNow(transcript, settings, options)),
  );
}

/** Applies a previewed (and possibly edited) summary. */
export async function applyProposal(actor: Actor, input: unknown): Promise<CompactResult> {
  const { conversationId, summary, fromSeq, toSeq, instructions } = parse(applyProposalInput, input);
  const { settings } = await readSettings(await getDb(), actor.id, conversationId);
  return compactResult(
    await compactUnderLock(actor.id, conversationId, settings, (transcript) =>
      compressionManager().applyProvided(
        transcript,
        { summary, trigger: "manual", fromSeq, toSeq, ...(instructions ? { instructions } : {}) },
        settings,
      ),
    ),
  );
}
