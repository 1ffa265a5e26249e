// search_history for conversations kept in memory (tests/support/simulation.ts's
// MemoryStore), answering in the app's format (lib/chat/tools/history.ts): the matching
// original messages, each with its number and an excerpt of about PostgreSQL's
// ts_headline size (MaxWords 28) around the first match. A stand-in for the database's
// full-text search, for in-memory sessions only: words match whole, case-insensitively.
import type { TranscriptMessage } from "@/lib/compression/types";

const LIMIT = 8;
const WORDS_BEFORE = 12;
const WORDS_AFTER = 16;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function excerpt(content: string, at: number): string {
  const before = content.slice(0, at).split(/\s+/).filter(Boolean).slice(-WORDS_BEFORE);
  const after = content.slice(at).split(/\s+/).filter(Boolean).slice(0, WORDS_AFTER);
  return [...before, ...after].join(" ");
}

/** The search_history result text for `query` over `messages` (each query word must occur). */
export function memorySearchHistory(messages: readonly TranscriptMessage[], query: string): string {
  const words = query.trim().split(/\s+/).filter(Boolean);
  const patterns = words.map((word) => new RegExp(`(?<![\\w-])${escaped(word)}(?![\\w-])`, "i"));
  const hits: string[] = [];
  for (const message of [...messages].reverse()) {
    if (hits.length === LIMIT) break;
    const content = message.content ?? "";
    if (!patterns.every((pattern) => pattern.test(content))) continue;
    const at = content.search(patterns[0]!);
    hits.push(`#${message.seq} (${message.role}): ${excerpt(content, at)}`);
  }
  if (hits.length === 0) return `No message or summary of this conversation matches "${query}".`;
  return [`Matches for "${query}" (open_history {"from": n} reads message #n whole):`, ...hits].join("\n");
}
