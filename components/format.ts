// Display formatting shared by the chat, activity and settings views.
import type { CostFigure } from "@/lib/pricing";

const integer = new Intl.NumberFormat("en-US");

export function formatCount(value: number): string {
  return integer.format(Math.round(value));
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  const sameDay = new Date().toDateString() === date.toDateString();
  return sameDay
    ? date.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleString("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

export function formatPercent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

const TRIGGER_LABELS: Record<string, string> = {
  auto: "auto",
  manual: "manual",
  tool: "tool",
  hard_limit: "hard limit",
};

export function triggerLabel(trigger: string): string {
  return TRIGGER_LABELS[trigger] ?? trigger;
}

type WrittenBy = { strategy: string; trigger: string };

/**
 * A summary the user applied from the Compress-now preview: stored as "model_provided"
 * (text written outside the engine), but nothing here was the model's, and the time it
 * took is only the time to store it.
 */
export function writtenByUser(item: WrittenBy): boolean {
  return item.strategy === "model_provided" && item.trigger === "manual";
}

/** What wrote a summary: a strategy, the chat model (its compress_context tool), or the user. */
export function strategyLabel(item: WrittenBy): string {
  if (writtenByUser(item)) return "edited by you";
  if (item.strategy === "model_provided") return "written by the chat model";
  return item.strategy.replaceAll("_", " ");
}

/** Dollars: cents when there are some, otherwise two significant digits (a turn often costs a fraction of a cent). */
export function formatCost(dollars: number): string {
  if (dollars === 0) return "$0";
  if (dollars >= 0.01) return `$${dollars.toFixed(2)}`;
  return `$${Number(dollars.toPrecision(2))}`;
}

/** A figure in dollars when any of its calls was priced ("+": some were not), otherwise in tokens. */
export function costLabel(figure: CostFigure): string {
  if (figure.cost !== null) return formatCost(figure.cost) + (figure.unpricedCalls > 0 ? "+" : "");
  return `${formatCount(figure.promptTokens + figure.completionTokens)} tok`;
}

/**
 * A refused form, said in the form's words: the server names a field by its key
 * ("inputPerMillion: …", for API callers); a form names it by its label, or not at all
 * when it has one field (label ""). A field the form does not know keeps the server's message.
 */
export function fieldRefusal(error: { message: string; fields?: Record<string, string[]> }, labels: Record<string, string>): string {
  const [key, messages] = Object.entries(error.fields ?? {})[0] ?? [];
  if (!key || !(key in labels) || !messages?.[0]) return error.message;
  return labels[key] ? `${labels[key]}: ${messages[0]}` : messages[0];
}
