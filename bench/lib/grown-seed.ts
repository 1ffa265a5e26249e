// Long conversations seeded the way they grow in the app, so that the active context at
// N stored messages is whatever the engine left there, not a shape the seed chose.
//
// The real engine (lib/compression with the app's tiktoken counter, model catalog and
// the default settings) runs over a scripted chat in memory, turn by turn as
// lib/chat/turn.ts drives it: user message → process() → reply (with usage) →
// process({ background: true }). Summaries are written by the outside model's
// extractive summarizer (tests/support/outside-model, in process). Every message and
// every compaction the engine made — the superseded ones included, linked to what
// merged them — is then inserted in bulk (messages through unnest, compactions
// through lib/db's own record mapping).
//
// Usage on each assistant message: requestTokens is our count of the request (the
// engine's measure), promptTokens that times the outside model's running ratio of its
// count to ours over the script, which is what the outside server reports for such a
// request to within rounding. Computing the exact server count per turn would rescan
// the whole request 50,000 times for a 100k conversation.
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { AutoCompressionManager } from "../../lib/compression/manager";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../../lib/compression/settings";
import type { CompactionRecord, CompressionChange, CompressionLogger, Transcript, TranscriptMessage } from "../../lib/compression/types";
import { REQUEST_OVERHEAD_TOKENS } from "../../lib/chat/tool-set";
import { compactionData } from "../../lib/db/compactions";
import type { Db } from "../../lib/db/client";
import { modelCatalog } from "../../lib/llm/models";
import { countMessageTokens, tokenCounter } from "../../lib/llm/tokens";
import * as outside from "../../tests/support/outside-model/behaviour";
import { seededRandom } from "../../lib/random";
import { chatter, OutsideSummarizer } from "../../tests/support/simulation";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const quiet: CompressionLogger = { info() {}, warn() {}, error() {} };

type Row = { seq: number; role: "user" | "assistant"; content: string; tokens: number; promptTokens: number | null; requestTokens: number | null };

export type GrownConversation = {
  id: string;
  messageCount: number;
  compactions: number;
  summaryCalls: number;
  /** The active context the engine left: summaries, messages and our token count of it. */
  active: { compactions: number; levels: string; messages: number; tokens: number };
  seedSeconds: number;
};

/** Grows a conversation of `count` messages through the engine and stores it for `userId`. */
export async function growConversation(
  client: pg.Client,
  db: Db,
  options: { userId: string; count: number; model?: string; seed?: number; settings?: CompressionSettings; systemPrompt?: string },
): Promise<GrownConversation> {
  const started = performance.now();
  const id = randomUUID();
  const model = options.model ?? "gpt-4o-mini";
  const settings = options.settings ?? DEFAULT_SETTINGS;
  const systemPrompt = options.systemPrompt ?? "You are a helpful assistant.";
  const summarizer = new OutsideSummarizer({ mode: "extractive" }, options.seed ?? 1);
  const manager = new AutoCompressionManager({ summarizer, tokens: tokenCounter, models: modelCatalog, logger: quiet });
  const rng = seededRandom(options.seed ?? 1);
  const records = new Map<string, CompactionRecord & { supersededById?: string }>();
  const rows: Row[] = [];
  let active: Transcript = {
    conversationId: id,
    model,
    systemPrompt,
    systemPromptTokens: countMessageTokens({ role: "system", content: systemPrompt }),
    toolTokens: REQUEST_OVERHEAD_TOKENS,
    compactions: [],
    messages: [],
    totalMessageCount: 0,
  };
  let ours = 0;
  let theirs = 0;
  const append = (row: Omit<Row, "seq">, message: DistributiveOmit<TranscriptMessage, "seq">) => {
    const seq = rows.length + 1;
    rows.push({ ...row, seq });
    active.messages.push({ ...message, seq } as TranscriptMessage);
    active.totalMessageCount = seq;
    ours += row.tokens;
    theirs += 4 + outside.countText(row.content);
  };
  const apply = (change: CompressionChange) => {
    if (change.created.length === 0) return;
    for (const record of change.created) {
      for (const child of record.childIds) records.get(child)!.supersededById = record.id;
      records.set(record.id, { ...record });
    }
    active = { ...change.transcript, messages: [...change.transcript.messages] };
  };
  while (rows.length < options.count) {
    const user = chatter(rng, 30 + Math.floor(rng() * 50));
    const userTokens = countMessageTokens({ role: "user", content: user });
    append({ role: "user", content: user, tokens: userTokens, promptTokens: null, requestTokens: null }, { role: "user", content: user, tokens: userTokens, pinned: false });
    apply(await manager.process(active, settings));
    if (rows.length >= options.count) break;
    const breakdown = manager.measure(active, settings);
    const requestTokens = breakdown.systemTokens + breakdown.summaryTokens + breakdown.messageTokens + breakdown.toolTokens;
    const promptTokens = Math.round(requestTokens * (theirs / ours));
    const reply = chatter(rng, 60 + Math.floor(rng() * 90));
    const replyTokens = countMessageTokens({ role: "assistant", content: reply });
    append(
      { role: "assistant", content: reply, tokens: replyTokens, promptTokens, requestTokens },
      { role: "assistant", content: reply, tokens: replyTokens, pinned: false, usage: { promptTokens, completionTokens: outside.countText(reply), requestTokens } },
    );
    apply(await manager.process(active, settings, { background: true }));
  }

  await client.query(
    `INSERT INTO "Conversation" (id, "userId", title, model, "systemPrompt", "lastSeq", "updatedAt") VALUES ($1, $2, $3, $4, $5, $6, now())`,
    [id, options.userId, `Grown ${options.count}`, model, systemPrompt, rows.length],
  );
  const BATCH = 5000;
  for (let start = 0; start < rows.length; start += BATCH) {
    const part = rows.slice(start, start + BATCH);
    await client.query(
      `INSERT INTO "Message" (id, "conversationId", seq, role, content, "tokenCount", model, "promptTokens", "completionTokens", "requestTokens", "updatedAt")
       SELECT gen_random_uuid()::text, $1, s, r::"MessageRole", c, t, CASE WHEN r = 'assistant' THEN $2 ELSE NULL END, p,
              CASE WHEN r = 'assistant' THEN 1 ELSE NULL END, q, now()
       FROM unnest($3::int[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[]) AS x(s, r, c, t, p, q)`,
      [id, model, part.map((m) => m.seq), part.map((m) => m.role), part.map((m) => m.content), part.map((m) => m.tokens), part.map((m) => m.promptTokens), part.map((m) => m.requestTokens)],
    );
  }
  // A merging record is made after the ones it merges: newest first puts every parent
  // in before the children that point at it.
  const ordered = [...records.values()].reverse();
  for (let start = 0; start < ordered.length; start += 500) {
    await db.compaction.createMany({
      data: ordered.slice(start, start + 500).map(({ supersededById, ...record }) => ({ ...compactionData(id, record), supersededById: supersededById ?? null })),
    });
  }
  const levels = active.compactions.map((c) => `L${c.level}`).join(" ") || "none";
  const breakdown = manager.measure(active, settings);
  return {
    id,
    messageCount: rows.length,
    compactions: records.size,
    summaryCalls: summarizer.calls,
    active: {
      compactions: active.compactions.length,
      levels,
      messages: active.messages.length,
      tokens: breakdown.systemTokens + breakdown.summaryTokens + breakdown.messageTokens + breakdown.toolTokens,
    },
    seedSeconds: (performance.now() - started) / 1000,
  };
}
