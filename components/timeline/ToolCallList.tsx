"use client";
import { useChat } from "@/components/stores/chat-store";
import type { ToolCall } from "@/lib/compression/types";
import { toolCallStatus, type ToolMessage } from "./tool-cards";
import { ToolCallCard } from "./ToolCallCard";

type ToolCallListProps = {
  replyId: string;
  calls: ToolCall[];
  /** The results found for these calls, by call id. */
  results: ReadonlyMap<string, ToolMessage> | undefined;
  /** Nothing but these calls' results follows the reply: a running turn may still add some. */
  open: boolean;
};

/** The calls of one reply, each a card with its result. */
export function ToolCallList({ replyId, calls, results, open }: ToolCallListProps) {
  const turnRunning = useChat((state) => open && (state.abort !== null || state.remoteTurn));
  // Joined into one string so that the list draws again only when the waiting calls change.
  const waiting = useChat((state) => (open ? state.approvals.map((approval) => approval.callId).join("\n") : ""));
  const awaiting = new Set(waiting ? waiting.split("\n") : []);
  return (
    <ul className="mt-1.5 space-y-1.5" aria-label="Tool calls">
      {calls.map((call) => {
        const result = results?.get(call.id);
        return (
          <li key={call.id} className="min-w-0">
            <ToolCallCard
              call={call}
              result={result}
              status={toolCallStatus(result, open, turnRunning, awaiting.has(call.id))}
              cardKey={`${replyId}:${call.id}`}
              holdsResult
            />
          </li>
        );
      })}
    </ul>
  );
}
