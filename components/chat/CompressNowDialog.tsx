"use client";
import { useRef, useState } from "react";
import { useChat, type Proposal } from "@/components/stores/chat-store";
import { useNotices } from "@/components/stores/notices-store";
import { Button } from "../ui/Button";
import { StatusNote } from "../ui/StatusNote";
import { LayersIcon } from "../ui/icons";
import { CompactionPreview } from "./CompactionPreview";
import { HeaderLabel, PHONE_MENU_PLAIN, PHONE_MENU_ROW } from "./HeaderLabel";
import { Dialog } from "@/components/ui/Dialog";

/** "Compress now": optional instructions, then a preview to edit and apply, or a direct run. */
export function CompressNowDialog() {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const busy = useChat((state) => state.busy);
  const compactNow = useChat((state) => state.compactNow);
  const previewCompaction = useChat((state) => state.previewCompaction);
  const [instructions, setInstructions] = useState("");
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const [working, setWorking] = useState<"preview" | "compress" | null>(null);
  // Why a preview produced nothing, shown in the dialog (the notices sit behind its backdrop).
  const [outcome, setOutcome] = useState<string | null>(null);
  const hasMessages = useChat((state) => state.items.length > 0);

  const close = () => {
    dialogRef.current?.close();
    setProposal(null);
    setOutcome(null);
  };

  async function run(kind: "preview" | "compress") {
    setWorking(kind);
    try {
      if (kind === "preview") {
        setOutcome(null);
        const proposed = await previewCompaction(instructions);
        setProposal(proposed);
        if (!proposed) setOutcome(useNotices.getState().notices.at(-1)?.text ?? "Nothing to preview.");
      } else {
        await compactNow(instructions);
        setInstructions("");
        close();
      }
    } finally {
      setWorking(null);
    }
  }

  return (
    <>
      <Button
        data-testid="compress-now"
        className={`${PHONE_MENU_ROW} ${PHONE_MENU_PLAIN}`}
        onClick={() => {
          setProposal(null);
          dialogRef.current?.showModal();
        }}
        disabled={busy || !hasMessages}
        title={hasMessages ? "Compress now" : "Nothing to compress yet"}
      >
        <LayersIcon /> <HeaderLabel>Compress now</HeaderLabel>
      </Button>
      <Dialog
        dialogRef={dialogRef}
        testId="compress-dialog"
        width="w-[min(40rem,calc(100vw-2rem))]"
        title="Compress now"
        onClose={() => setProposal(null)}
        onCancel={(event) => {
          // Escape would drop a proposed (perhaps edited) summary without a word.
          if (proposal && !window.confirm("Discard the proposed summary and your edits to it?")) event.preventDefault();
        }}
        onCloseButton={close}
      >
        <div className="space-y-3 p-4">
          {proposal ? (
            <CompactionPreview
              proposal={proposal}
              onDone={() => {
                setInstructions("");
                close();
              }}
              onDiscard={() => setProposal(null)}
            />
          ) : (
            <>
              <label className="block text-[12.5px] font-medium" htmlFor="compact-instructions">
                Instructions for the summary <span className="font-normal text-neutral-500">(optional)</span>
              </label>
              <textarea
                id="compact-instructions"
                data-testid="compact-instructions"
                value={instructions}
                onChange={(event) => setInstructions(event.target.value)}
                rows={3}
                maxLength={5000}
                placeholder="e.g. keep every file path and the decisions about the schema"
                className="w-full resize-y rounded-md border border-neutral-300 bg-white px-2.5 py-2 text-[13px] dark:border-neutral-700 dark:bg-neutral-950"
              />
              <StatusNote
                testId="compress-dialog-outcome"
                className="rounded-md bg-amber-50 px-2.5 py-1.5 text-[12.5px] text-amber-900 dark:bg-amber-950/60 dark:text-amber-200"
              >
                {outcome}
              </StatusNote>
              <p className="text-[12px] text-neutral-500">
                Summarizes the oldest messages outside the keep-recent window. Preview lets you edit the summary before it
                replaces them; the originals stay one click away.
              </p>
              <div className="flex justify-end gap-2">
                <Button variant="ghost" onClick={close}>
                  Cancel
                </Button>
                <Button data-testid="compact-preview-button" onClick={() => void run("preview")} disabled={busy || working !== null}>
                  {working === "preview" ? "Preparing preview…" : "Preview"}
                </Button>
                <Button
                  variant="primary"
                  data-testid="compact-run"
                  onClick={() => void run("compress")}
                  disabled={busy || working !== null}
                >
                  {working === "compress" ? "Compressing…" : "Compress"}
                </Button>
              </div>
            </>
          )}
        </div>
      </Dialog>
    </>
  );
}
