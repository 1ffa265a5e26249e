-- CreateEnum
CREATE TYPE "CompactionSource" AS ENUM ('ai_summary', 'simple_extract', 'structured', 'turn_digest', 'model_provided', 'truncation');

-- AlterTable: every value ever written is one of these (the engine's union); a stray one fails the migration loudly.
ALTER TABLE "Compaction" ALTER COLUMN "strategy" TYPE "CompactionSource" USING ("strategy"::"CompactionSource");
ALTER TABLE "CompactionAttempt" ALTER COLUMN "strategy" TYPE "CompactionSource" USING ("strategy"::"CompactionSource");
