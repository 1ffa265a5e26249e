-- CreateEnum
CREATE TYPE "ImportState" AS ENUM ('receiving', 'queued', 'running', 'done', 'failed');

-- CreateTable
CREATE TABLE "ConversationImport" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "state" "ImportState" NOT NULL DEFAULT 'receiving',
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "messagesDone" INTEGER NOT NULL DEFAULT 0,
    "conversationId" TEXT,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationImport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ConversationImport_userId_createdAt_idx" ON "ConversationImport"("userId", "createdAt");

-- One active import per user, whichever process takes it: the second insert fails with a
-- unique violation, answered 409 (lib/db/imports.ts). Not expressible in the Prisma schema.
CREATE UNIQUE INDEX "ConversationImport_one_active_per_user" ON "ConversationImport"("userId")
  WHERE "state" IN ('receiving', 'queued', 'running');
