"use client";
import { useChat } from "@/components/stores/chat-store";
import { Markdown } from "../ui/Markdown";
import { ReasoningBlock } from "./ReasoningBlock";

/** The assistant's reply while it streams (or a waiting indicator before the first token). */
export function StreamingReply() {
  const streaming = useChat((state) => state.streaming);
  const waitingOnUser = useChat((state) => state.approvals.length > 0);
  return (
    <article
      data-testid="streaming-reply"
      aria-live="off"
      aria-busy="true"
      className="rounded-lg border-l-2 border-transparent px-3 py-2"
    >
      <header className="mb-0.5 flex items-center gap-2 text-[11.5px]">
        <span className="font-semibold text-neutral-800 dark:text-neutral-200">Assistant</span>
        {streaming?.model ? <span className="font-mono text-neutral-400">{streaming.model}</span> : null}
        <span className="animate-strata-pulse size-1.5 rounded-full bg-sky-500" />
      </header>
      {streaming?.reasoning ? <ReasoningBlock text={streaming.reasoning} live={!streaming.text} /> : null}
      {streaming?.text ? (
        <Markdown text={streaming.text} streaming />
      ) : (
        <p className="text-[13px] text-neutral-500">
          {waitingOnUser ? "Waiting for your answer to the tool call below…" : streaming ? "Thinking…" : "Waiting for the model…"}
        </p>
      )}
    </article>
  );
}
