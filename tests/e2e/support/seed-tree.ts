// Stores a generated compaction tree (tests/support/deep-tree.ts) in the e2e database as
// the messages and compactions of a conversation the signed-in user made through the
// API: 800 messages and a level-22 chain in well under a second, no model involved.
import { insertionOrder, type GeneratedTree } from "../../support/deep-tree";
import { seedInTransaction } from "./database";

export async function seedTree(conversationId: string, tree: GeneratedTree): Promise<void> {
  await seedInTransaction(async (client) => {
    const m = tree.messages;
    await client.query(
      `INSERT INTO "Message" (id, "conversationId", seq, role, content, "tokenCount", pinned, model, "updatedAt")
       SELECT gen_random_uuid()::text, $1, s, r::"MessageRole", c, 24, p, CASE WHEN r = 'assistant' THEN 'gpt-4o-mini' END, now()
       FROM unnest($2::int[], $3::text[], $4::text[], $5::bool[]) AS x(s, r, c, p)`,
      [conversationId, m.map((x) => x.seq), m.map((x) => x.role), m.map((x) => x.content), m.map((x) => x.pinned)],
    );
    const c = insertionOrder(tree);
    await client.query(
      `INSERT INTO "Compaction" (id, "conversationId", level, kind, trigger, strategy, "fromSeq", "toSeq", summary,
         "summaryModel", "summaryTokens", "coveredMessageCount", "coveredTokens", "messagesBefore", "messagesAfter",
         "tokensBefore", "tokensAfter", "durationMs", background, "supersededById", "keptSeqs", "outOfView")
       SELECT i, $1, l, 'summary', 'auto', 'ai_summary', f, t, s, 'gpt-4o-mini', 60, cm, cm * 24, 0, 0, 0, 0, 900, false, p,
              CASE WHEN $9::int BETWEEN f AND t THEN ARRAY[$9::int] ELSE '{}'::int[] END, o
       FROM unnest($2::text[], $3::int[], $4::int[], $5::int[], $6::text[], $7::int[], $8::text[], $10::text[]) AS x(i, l, f, t, s, cm, p, o)`,
      [
        conversationId,
        c.map((x) => x.id),
        c.map((x) => x.level),
        c.map((x) => x.fromSeq),
        c.map((x) => x.toSeq),
        c.map((x) => x.summary),
        c.map((x) => x.coveredMessageCount),
        c.map((x) => x.parentId),
        tree.messages.find((x) => x.pinned)?.seq ?? 0,
        c.map((x) => x.outOfView ?? null),
      ],
    );
    await client.query(`UPDATE "Conversation" SET "lastSeq" = $2, "updatedAt" = now() WHERE id = $1`, [conversationId, m.length]);
  });
}
