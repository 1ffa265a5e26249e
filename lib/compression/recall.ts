// What the request tells the model about the compressed part of its conversation (a
// few lines, only once something is compressed), and the automatic recall block: the
// original messages that best match the user's message, found by the conversation
// layer and handed in as data, shown for one turn only. Both are counted like any
// other part of the request (docs/design.md, "Recall").
import { MESSAGE_OVERHEAD_TOKENS } from "./render";
import { recallAutomatically, recallByTools, type CompressionSettings } from "./settings";
import type { TokenCounter, Transcript } from "./types";

/** A recalled original message as the block shows it. */
export type RecalledMessage = { seq: number; role: string; text: string };

/** The block as the request carries it: its text and its cost as a message, in our count. */
export type RecallBlock = { text: string; tokens: number; messages: number };

/** The tool the notice tells the model to call (lib/chat/tools offers it under this name). */
export const SEARCH_HISTORY_TOOL_NAME = "search_history";

const RECALL_HEADING =
  "Earlier messages of this conversation that match the user's next message (from the summarized part, quoted word for word; shown for this turn only):";

/**
 * The lines that tell the model what it is looking at once something is compressed;
 * null before, and with recall off (the request is then what it was before recall existed).
 */
export function historyNotice(transcript: Pick<Transcript, "compactions" | "tools">, settings: Pick<CompressionSettings, "recallMode">, contextWindow: number): string | null {
  if (transcript.compactions.length === 0 || settings.recallMode === "off") return null;
  const lines = [
    "Earlier parts of this conversation are summarized in your context; every original message is stored.",
    "Numbers like (#12) or #12–#40 refer to original messages by their number.",
  ];
  if (offersHistoryTools(transcript, settings, contextWindow)) lines.push("To read them word for word, call search_history (find words or a phrase) or open_history (messages by number).");
  if (recallAutomatically(settings)) lines.push("Earlier messages that match the user's message may be quoted just before it.");
  return lines.join("\n");
}

/**
 * Whether the request offers the history tools: what its tools say when they are known
 * (a model that refused tools gets none; a turn whose own compaction came first offers
 * them from the next turn), else what the settings allow at this window.
 */
function offersHistoryTools(transcript: Pick<Transcript, "tools">, settings: Pick<CompressionSettings, "recallMode">, contextWindow: number): boolean {
  if (transcript.tools === undefined) return recallByTools(settings, contextWindow);
  return recallByTools(settings, contextWindow) && transcript.tools.some((tool) => tool.function.name === SEARCH_HISTORY_TOOL_NAME);
}

/** What the notice costs as a system message (0 before anything is compressed). */
export function historyNoticeTokens(
  transcript: Pick<Transcript, "compactions" | "tools">,
  settings: Pick<CompressionSettings, "recallMode">,
  contextWindow: number,
  tokens: TokenCounter,
): number {
  const notice = historyNotice(transcript, settings, contextWindow);
  return notice === null ? 0 : tokens.count(notice) + MESSAGE_OVERHEAD_TOKENS;
}

function recalledLine(message: RecalledMessage): string {
  return `[#${message.seq} ${message.role}]: ${message.text.replace(/\s+/g, " ").trim()}`;
}

/**
 * The block of `candidates` (best first) that fits `maxTokens` as a message: each
 * candidate is taken whole or not at all, so a quote is never cut mid-way. Null when
 * not even the first fits.
 */
export function recallBlock(candidates: readonly RecalledMessage[], maxTokens: number, tokens: TokenCounter): RecallBlock | null {
  const lines = [RECALL_HEADING];
  let total = tokens.count(RECALL_HEADING) + MESSAGE_OVERHEAD_TOKENS;
  for (const candidate of candidates) {
    const line = recalledLine(candidate);
    const cost = tokens.count(line) + 1;
    if (total + cost > maxTokens) continue;
    lines.push(line);
    total += cost;
  }
  if (lines.length === 1) return null;
  const text = lines.join("\n");
  return { text, tokens: tokens.count(text) + MESSAGE_OVERHEAD_TOKENS, messages: lines.length - 1 };
}
