import { applyClearing } from "./tool-view";
import type { CompactionRecord, TokenCounter, Transcript } from "./types";

/**
 * The transcript after `record` becomes active: its children leave, the messages of
 * its range leave except those it keeps beside itself, and it takes their place. A
 * clearing removes nothing: its results stay, shown as notes (counted with `tokens`).
 */
export function applyCompaction(transcript: Transcript, record: CompactionRecord, tokens: TokenCounter): Transcript {
  if (record.kind === "clearing") return applyClearing(transcript, record, tokens);
  return replaceRange(transcript, record);
}

/** applyCompaction for a record that replaces its range (no counting needed). */
export function replaceRange(transcript: Transcript, record: CompactionRecord): Transcript {
  const children = new Set(record.kind === "truncation" && record.absorbsId ? [...record.childIds, record.absorbsId] : record.childIds);
  const kept = new Set(record.keptSeqs);
  const compactions = [...transcript.compactions.filter((c) => !children.has(c.id)), record].sort((a, b) => a.fromSeq - b.fromSeq);
  const messages = transcript.messages.filter(
    (message) => kept.has(message.seq) || message.seq < record.fromSeq || message.seq > record.toSeq,
  );
  return { ...transcript, compactions, messages };
}

/** Active compactions that overlap [fromSeq, toSeq]; a new record must absorb them whole. */
export function overlapping(transcript: Transcript, fromSeq: number, toSeq: number): CompactionRecord[] {
  return transcript.compactions.filter((c) => c.toSeq >= fromSeq && c.fromSeq <= toSeq);
}
