import { costLabel, formatCount, plural } from "@/components/format";
import type { AccountCostView, CostFigure } from "@/lib/pricing";

function Figure({ label, figure, testId }: { label: string; figure: CostFigure; testId: string }) {
  return (
    <div data-testid={testId} data-cost={figure.cost ?? ""} data-prompt={figure.promptTokens} data-cached={figure.cachedTokens} data-completion={figure.completionTokens}>
      <dt className="text-[12px] text-neutral-500">{label}</dt>
      <dd className="font-mono text-[15px] tabular-nums">{costLabel(figure)}</dd>
      <dd className="font-mono text-[11px] text-neutral-500 tabular-nums">
        {formatCount(figure.promptTokens)} in ({formatCount(figure.cachedTokens)} cached) · {formatCount(figure.completionTokens)} out
      </dd>
    </div>
  );
}

/** What the user's conversations cost in all (those they still have). */
export function AccountCost({ cost }: { cost: AccountCostView }) {
  return (
    <section data-testid="account-cost" className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
      <h2 className="text-[13.5px] font-medium">What your conversations cost</h2>
      <p className="mb-3 text-[12px] text-neutral-500">
        {plural(cost.conversations, "conversation")}; tokens as the model server reported them, priced at the admin&apos;s price in effect at each call
        {cost.total.unpricedCalls > 0 ? ` (${plural(cost.total.unpricedCalls, "call")} without a price: tokens only)` : ""}.
      </p>
      <dl className="grid grid-cols-3 gap-3">
        <Figure label="In all" figure={cost.total} testId="account-cost-total" />
        <Figure label="Chat replies" figure={cost.chat} testId="account-cost-chat" />
        <Figure label="Compaction" figure={cost.compaction} testId="account-cost-compaction" />
      </dl>
    </section>
  );
}
