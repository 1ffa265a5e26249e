"use client";
import { useState } from "react";
import { useChat, type Proposal } from "@/components/stores/chat-store";
import { formatCount } from "@/components/format";
import { Button } from "../ui/Button";

/** The proposed summary, editable, with Apply and Discard. */
export function CompactionPreview({
  proposal,
  onDone,
  onDiscard,
}: {
  proposal: Proposal;
  onDone: () => void;
  onDiscard: () => void;
}) {
  const applyProposal = useChat((state) => state.applyProposal);
  const [summary, setSummary] = useState(proposal.summary);
  const [applying, setApplying] = useState(false);
  // Why Apply did not apply, said here: the page's notice is behind this modal dialog.
  const [failure, setFailure] = useState<string | null>(null);
  const empty = summary.trim().length === 0;
  // The server counted the summary as proposed; an edited one is estimated by its length
  // (the browser has no tokenizer). Apply compares the exact counts.
  const estimate =
    summary === proposal.summary ? proposal.proposedTokens : Math.round((proposal.proposedTokens * summary.length) / Math.max(1, proposal.summary.length));
  const notShorter = !empty && estimate >= proposal.replacedTokens;

  return (
    <section data-testid="compaction-preview" aria-label="Proposed summary" className="space-y-2">
      <div className="flex items-baseline justify-between">
        <h3 className="text-[12.5px] font-medium">Proposed summary</h3>
        <span className="font-mono text-[11.5px] text-neutral-500">
          replaces messages #{formatCount(proposal.fromSeq)}–#{formatCount(proposal.toSeq)}
        </span>
      </div>
      {proposal.instructions ? (
        <p className="text-[12px] text-neutral-500">
          Instructions: <span className="italic">{proposal.instructions}</span>
        </p>
      ) : null}
      <textarea
        data-testid="preview-summary"
        aria-label="Proposed summary (editable)"
        value={summary}
        onChange={(event) => setSummary(event.target.value)}
        rows={12}
        className="w-full resize-y rounded-md border border-neutral-300 bg-neutral-50 px-2.5 py-2 font-mono text-[12px] leading-relaxed dark:border-neutral-700 dark:bg-neutral-950"
      />
      <p data-testid="preview-size" className="text-[12px] text-neutral-500">
        {summary === proposal.summary ? "" : "About "}
        {formatCount(estimate)} tokens in place of the {formatCount(proposal.replacedTokens)} the messages cost
      </p>
      {notShorter ? (
        <p role="status" data-testid="preview-not-shorter" className="text-[12px] text-amber-700 dark:text-amber-400">
          Not shorter than the messages it replaces, so it would save nothing and Apply will refuse it. Shorten it, or Discard.
        </p>
      ) : null}
      {empty ? (
        <p role="alert" className="text-[12px] text-red-600 dark:text-red-400">
          The summary is empty.
        </p>
      ) : null}
      {failure ? (
        <p role="alert" data-testid="preview-apply-error" className="text-[12px] text-red-600 dark:text-red-400">
          {failure}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" data-testid="preview-discard" onClick={onDiscard} disabled={applying}>
          Discard
        </Button>
        <Button
          variant="primary"
          data-testid="preview-apply"
          disabled={applying || empty}
          onClick={async () => {
            setApplying(true);
            setFailure(null);
            const applied = await applyProposal({ ...proposal, summary });
            setApplying(false);
            if (applied === true) onDone();
            else setFailure(applied);
          }}
        >
          {applying ? "Applying…" : "Apply summary"}
        </Button>
      </div>
    </section>
  );
}
