-- What each model call cost in tokens, as the server reported it: the cached share of a
-- reply's prompt, and the summary calls behind each compaction and each attempt (sums,
-- since one compaction may take several calls). Null: the server reported nothing.
ALTER TABLE "Message" ADD COLUMN "cachedTokens" INTEGER;

ALTER TABLE "Compaction" ADD COLUMN "callPromptTokens" INTEGER,
ADD COLUMN "callCachedTokens" INTEGER,
ADD COLUMN "callCompletionTokens" INTEGER;

ALTER TABLE "CompactionAttempt" ADD COLUMN "callPromptTokens" INTEGER,
ADD COLUMN "callCachedTokens" INTEGER,
ADD COLUMN "callCompletionTokens" INTEGER;

-- The admin's price table, append-only: a change is a new row, so every call is priced
-- at the row that was in effect when it was made (lib/db/prices.ts). All three prices
-- null: that model is shown in tokens only from then on.
CREATE TABLE "ModelPrice" (
    "id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputPerMillion" DOUBLE PRECISION,
    "cachedInputPerMillion" DOUBLE PRECISION,
    "outputPerMillion" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ModelPrice_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "ModelPrice_model_createdAt_idx" ON "ModelPrice"("model", "createdAt");
