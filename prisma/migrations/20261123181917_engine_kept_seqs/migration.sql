-- AlterTable
ALTER TABLE "Compaction" ADD COLUMN     "keptSeqs" INTEGER[] DEFAULT ARRAY[]::INTEGER[];

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "historyVersion" INTEGER NOT NULL DEFAULT 0;


-- Pinned messages inside an active compaction's range were kept beside it (compaction
-- never takes a pinned message); record them so that unpinning keeps them in view.
UPDATE "Compaction" AS c
SET "keptSeqs" = kept.seqs
FROM (
  SELECT c2."id", array_agg(m."seq" ORDER BY m."seq") AS seqs
  FROM "Compaction" AS c2
  JOIN "Message" AS m
    ON m."conversationId" = c2."conversationId"
   AND m."seq" BETWEEN c2."fromSeq" AND c2."toSeq"
   AND m."pinned"
   AND m."rewoundAt" IS NULL
  GROUP BY c2."id"
) AS kept
WHERE c."id" = kept."id";
