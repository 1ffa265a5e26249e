"use client";
import { useId } from "react";
import { useChat } from "@/components/stores/chat-store";
import { useConversationCost } from "@/components/queries/conversation-data";
import { costLabel, formatCount, plural } from "@/components/format";
import type { CostFigure } from "@/lib/pricing";
import { popoverContainerProps, popoverProps, popoverTriggerProps, useHoverPopover } from "../ui/hover-popover";
import { PHONE_MENU_ROW } from "./HeaderLabel";

function Row({ label, figure, testId }: { label: string; figure: CostFigure; testId: string }) {
  return (
    <div data-testid={testId} data-cost={figure.cost ?? ""} data-prompt={figure.promptTokens} data-cached={figure.cachedTokens} data-completion={figure.completionTokens}>
      <div className="flex gap-2">
        <dt className="flex-1 text-neutral-600 dark:text-neutral-400">{label}</dt>
        <dd className="font-mono tabular-nums">{costLabel(figure)}</dd>
      </div>
      <p className="text-right font-mono text-[11px] text-neutral-500 tabular-nums">
        {formatCount(figure.promptTokens)} in ({formatCount(figure.cachedTokens)} cached) · {formatCount(figure.completionTokens)} out
      </p>
    </div>
  );
}

/** The conversation's bill in the header: in all, with this turn and the compaction overhead on hover or click. */
export function ConversationCost() {
  const conversationId = useChat((state) => state.conversationId);
  // Read again when a turn, a compaction or a change from elsewhere invalidates it (chat-store.ts).
  const cost = useConversationCost(conversationId);
  const { open, send } = useHoverPopover();
  const detailsId = useId();

  if (!cost || cost.total.calls === 0) return null;
  const unpriced = cost.total.unpricedCalls;
  return (
    <div className="relative" {...popoverContainerProps(send)}>
      <button
        type="button"
        data-testid="conversation-cost"
        data-cost={cost.total.cost ?? ""}
        aria-label={`Conversation cost: ${costLabel(cost.total)}`}
        {...popoverTriggerProps(open, send, detailsId)}
        className={`inline-flex h-7 items-center rounded-md px-2 text-neutral-600 hover:bg-neutral-100 dark:text-neutral-400 dark:hover:bg-neutral-800 ${PHONE_MENU_ROW}`}
      >
        {/* In the phone menu a bare figure among the rows would not say what it counts. */}
        <span className="lg:hidden">Cost</span>
        <span className="font-mono text-[11.5px] whitespace-nowrap tabular-nums max-lg:ml-auto">{costLabel(cost.total)}</span>
      </button>
      {open ? (
        <div
          id={detailsId}
          {...popoverProps}
          role="tooltip"
          data-testid="conversation-cost-details"
          className="absolute top-full right-0 z-30 mt-2 w-72 rounded-lg border border-neutral-200 bg-white p-3 text-[12px] shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
        >
          <p className="mb-2 font-semibold">What this conversation cost</p>
          <dl className="space-y-1.5">
            <Row label="In all" figure={cost.total} testId="cost-total" />
            <Row label="This turn" figure={cost.thisTurn} testId="cost-this-turn" />
            <Row label="Compaction (summary calls)" figure={cost.compaction} testId="cost-compaction" />
          </dl>
          <p className="mt-2 text-[11px] text-neutral-500">
            {unpriced > 0
              ? `${plural(unpriced, "call")} made while their model had no price: counted in tokens only.`
              : "Tokens as the model server reported them, at the price in effect at each call."}
          </p>
        </div>
      ) : null}
    </div>
  );
}
