// Fast seeding of long conversations with a realistic compaction tree, straight
// through SQL (multi-row INSERT ... SELECT FROM unnest): 100k messages in seconds.
//
// Shape of a seeded conversation of N messages:
//   - messages alternate user (~25 tokens) / assistant (~110 tokens); the newest
//     `recent` messages are not covered by anything;
//   - the older part is covered by level-1 summaries of 20 messages each; the newest
//     3 level-1s are active; the others are merged into level-2s of ~f children
//     (f ≈ sqrt(#level-1 / 3)); the newest 2 level-2s are active; the others are
//     merged into 3 active level-3s. So the active context is always
//     3 L3 + 2 L2 + 3 L1 summaries + `recent` messages, whatever N is, and the
//     superseded history below it grows with N (as in a real conversation).
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { countMessageTokens, countTextTokens } from "../../lib/llm/tokens";
import { seededRandom } from "./common";

const WORDS = (
  "database index query latency budget summary context window token model reply user assistant level " +
  "compaction history range sequence merge cache postgres prisma request stream chunk server client " +
  "benchmark median ratio throughput memory layout render page block expand original covered active"
).split(" ");

function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  const text = out.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export type SeedMessage = { seq: number; role: "user" | "assistant"; content: string; tokens: number };

/** A pool of distinct contents (token counts computed once each), reused round-robin. */
function contentPool(seed: number) {
  const random = seededRandom(seed);
  const users: { content: string; tokens: number }[] = [];
  const assistants: { content: string; tokens: number }[] = [];
  for (let i = 0; i < 97; i++) {
    const content = `${sentence(random, 12)} ${sentence(random, 8)} (question ${i})`;
    users.push({ content, tokens: countMessageTokens({ role: "user", content }) });
  }
  for (let i = 0; i < 89; i++) {
    const content = [sentence(random, 30), sentence(random, 25), `- ${sentence(random, 10)}`, `- ${sentence(random, 12)}`, sentence(random, 15)].join("\n");
    assistants.push({ content, tokens: countMessageTokens({ role: "assistant", content }) });
  }
  return { users, assistants };
}

export function seedMessages(count: number, seed = 1): SeedMessage[] {
  const pool = contentPool(seed);
  const messages: SeedMessage[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const user = seq % 2 === 1;
    const item = user ? pool.users[seq % pool.users.length]! : pool.assistants[seq % pool.assistants.length]!;
    messages.push({ seq, role: user ? "user" : "assistant", content: item.content, tokens: item.tokens });
  }
  return messages;
}

export type SeedCompaction = {
  id: string;
  level: number;
  fromSeq: number;
  toSeq: number;
  summary: string;
  summaryTokens: number;
  coveredMessageCount: number;
  coveredTokens: number;
  supersededById: string | null;
  children: SeedCompaction[];
};

function summaryFor(level: number, fromSeq: number, toSeq: number, random: () => number): string {
  const lines = [`Summary of the conversation so far.`, sentence(random, 25 + level * 10)];
  // A couple of planted facts per summary, as the fact-preserving summarizer writes them.
  for (let i = 0; i < 2 + level; i++) lines.push(`FACT k${fromSeq}_${i}=v${toSeq}_${i}`);
  lines.push(`Digest: ${toSeq - fromSeq + 1} messages; level ${level}.`);
  return lines.join("\n");
}

function group<T>(items: T[], groups: number): T[][] {
  const out: T[][] = [];
  const size = items.length / groups;
  for (let g = 0; g < groups; g++) {
    const part = items.slice(Math.round(g * size), Math.round((g + 1) * size));
    if (part.length > 0) out.push(part);
  }
  return out;
}

export function compactionTree(messages: SeedMessage[], recent: number, seed = 7, chunk = 20): { all: SeedCompaction[]; active: SeedCompaction[] } {
  const random = seededRandom(seed);
  const old = messages.slice(0, Math.max(0, messages.length - recent));
  const all: SeedCompaction[] = [];
  const make = (level: number, fromSeq: number, toSeq: number, children: SeedCompaction[], covered: SeedMessage[]): SeedCompaction => {
    const summary = summaryFor(level, fromSeq, toSeq, random);
    const record: SeedCompaction = {
      id: randomUUID(),
      level,
      fromSeq,
      toSeq,
      summary,
      summaryTokens: countTextTokens(summary),
      coveredMessageCount: children.length ? children.reduce((s, c) => s + c.coveredMessageCount, 0) : covered.length,
      coveredTokens: children.length ? children.reduce((s, c) => s + c.coveredTokens, 0) : covered.reduce((s, m) => s + m.tokens, 0),
      supersededById: null,
      children,
    };
    for (const child of children) child.supersededById = record.id;
    all.push(record);
    return record;
  };
  const level1: SeedCompaction[] = [];
  for (let start = 0; start + chunk <= old.length; start += chunk) {
    const end = start + 2 * chunk > old.length ? old.length : start + chunk;
    const covered = old.slice(start, end);
    level1.push(make(1, covered[0]!.seq, covered.at(-1)!.seq, [], covered));
    if (end === old.length) break;
  }
  if (level1.length < 8) return { all, active: level1 };
  const activeL1 = level1.slice(-3);
  const rest = level1.slice(0, -3);
  const fanOut = Math.max(2, Math.round(Math.sqrt(rest.length / 3)));
  const level2 = group(rest, Math.max(5, Math.floor(rest.length / fanOut))).map((children) =>
    make(2, children[0]!.fromSeq, children.at(-1)!.toSeq, children, []),
  );
  const activeL2 = level2.slice(-2);
  const level3 = group(level2.slice(0, -2), 3).map((children) => make(3, children[0]!.fromSeq, children.at(-1)!.toSeq, children, []));
  return { all, active: [...level3, ...activeL2, ...activeL1] };
}

export type SeededConversation = {
  id: string;
  messageCount: number;
  compactionCount: number;
  activeCompactions: SeedCompaction[];
  all: SeedCompaction[];
  messages: SeedMessage[];
};

const BATCH = 5000;

/** Inserts a conversation with `count` messages and its compaction tree. */
export async function seedConversation(
  client: pg.Client,
  options: { userId: string; count: number; recent?: number; model?: string; systemPrompt?: string; title?: string; withTree?: boolean; chunk?: number },
): Promise<SeededConversation> {
  const id = randomUUID();
  const model = options.model ?? "gpt-4o-mini";
  const messages = seedMessages(options.count, options.count);
  await client.query(
    `INSERT INTO "Conversation" (id, "userId", title, model, "systemPrompt", "lastSeq", "updatedAt") VALUES ($1, $2, $3, $4, $5, $6, now())`,
    [id, options.userId, options.title ?? `Seeded ${options.count}`, model, options.systemPrompt ?? "You are a helpful assistant.", options.count],
  );
  for (let start = 0; start < messages.length; start += BATCH) {
    const part = messages.slice(start, start + BATCH);
    await client.query(
      `INSERT INTO "Message" (id, "conversationId", seq, role, content, "tokenCount", model, "updatedAt")
       SELECT gen_random_uuid()::text, $1, s, r::"MessageRole", c, t, CASE WHEN r = 'assistant' THEN $6 ELSE NULL END, now()
       FROM unnest($2::int[], $3::text[], $4::text[], $5::int[]) AS x(s, r, c, t)`,
      [id, part.map((m) => m.seq), part.map((m) => m.role), part.map((m) => m.content), part.map((m) => m.tokens), model],
    );
  }
  const tree = options.withTree === false ? { all: [], active: [] } : compactionTree(messages, options.recent ?? 30, 7, options.chunk ?? 20);
  // Parents before children (the supersededById foreign key).
  const ordered = [...tree.all].sort((a, b) => b.level - a.level);
  for (let start = 0; start < ordered.length; start += BATCH) {
    const part = ordered.slice(start, start + BATCH);
    await client.query(
      `INSERT INTO "Compaction" (id, "conversationId", level, kind, trigger, strategy, "fromSeq", "toSeq", summary,
         "summaryModel", "summaryTokens", "coveredMessageCount", "coveredTokens", "messagesBefore", "messagesAfter",
         "tokensBefore", "tokensAfter", "durationMs", background, "supersededById")
       SELECT i, $1, l, 'summary', 'auto', 'ai_summary', f, t, s, $2, st, cm, ct, 0, 0, 0, 0, 0, false, p
       FROM unnest($3::text[], $4::int[], $5::int[], $6::int[], $7::text[], $8::int[], $9::int[], $10::int[], $11::text[])
         AS x(i, l, f, t, s, st, cm, ct, p)`,
      [
        id,
        model,
        part.map((c) => c.id),
        part.map((c) => c.level),
        part.map((c) => c.fromSeq),
        part.map((c) => c.toSeq),
        part.map((c) => c.summary),
        part.map((c) => c.summaryTokens),
        part.map((c) => c.coveredMessageCount),
        part.map((c) => c.coveredTokens),
        part.map((c) => c.supersededById),
      ],
    );
  }
  return { id, messageCount: options.count, compactionCount: tree.all.length, activeCompactions: tree.active, all: tree.all, messages };
}
