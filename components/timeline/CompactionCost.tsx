"use client";
import { useChat } from "@/components/stores/chat-store";
import { useConversationCost } from "@/components/queries/conversation-data";
import { costLabel, formatCost, formatCount } from "@/components/format";

/** What a compaction cost, what it saves on each later turn, and when it has paid for itself. */
export function CompactionCost({ compactionId }: { compactionId: string }) {
  const conversationId = useChat((state) => state.conversationId);
  const entry = useConversationCost(conversationId, { read: false })?.compactions.find((c) => c.compactionId === compactionId);
  if (!entry || entry.cost.calls === 0) return null;
  const { payback } = entry;
  const paid = payback !== null && entry.turnsSince >= payback.turns;
  return (
    <span
      data-testid="compaction-cost"
      data-cost={entry.cost.cost ?? ""}
      data-saved-tokens={entry.savedTokensPerTurn}
      data-payback-turns={payback?.turns ?? ""}
      data-turns-since={entry.turnsSince}
      // Wraps rather than truncates: on a phone the line is longer than the block, and its
      // end (when the compaction pays for itself) is what it is there to say.
      className="min-w-0 font-mono text-neutral-500 tabular-nums"
      title={`Its summary calls: ${formatCount(entry.cost.promptTokens)} prompt tokens (${formatCount(entry.cost.cachedTokens)} cached), ${formatCount(entry.cost.completionTokens)} completion tokens`}
    >
      cost {costLabel(entry.cost)} · saves {formatCount(entry.savedTokensPerTurn)} tok
      {entry.savedPerTurn !== null ? ` (${formatCost(entry.savedPerTurn)})` : ""}/turn
      {payback
        ? ` · ${paid ? "paid for itself" : "pays for itself"} after ${payback.turns} turn${payback.turns === 1 ? "" : "s"}${payback.unit === "tokens" ? " (in tokens)" : ""}, ${entry.turnsSince} so far`
        : ""}
    </span>
  );
}
