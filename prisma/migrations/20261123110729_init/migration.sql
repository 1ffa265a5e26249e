-- CreateEnum
CREATE TYPE "MessageRole" AS ENUM ('system', 'user', 'assistant', 'tool');

-- CreateEnum
CREATE TYPE "MessageStatus" AS ENUM ('complete', 'streaming', 'stopped', 'error');

-- CreateEnum
CREATE TYPE "CompactionKind" AS ENUM ('summary', 'truncation');

-- CreateEnum
CREATE TYPE "CompactionTrigger" AS ENUM ('auto', 'manual', 'tool', 'hard_limit');

-- CreateEnum
CREATE TYPE "AttemptOutcome" AS ENUM ('applied', 'failed', 'skipped');

-- CreateTable
CREATE TABLE "Conversation" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "systemPrompt" TEXT NOT NULL DEFAULT '',
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Conversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "role" "MessageRole" NOT NULL,
    "content" TEXT NOT NULL,
    "toolCalls" JSONB,
    "toolCallId" TEXT,
    "toolName" TEXT,
    "tokenCount" INTEGER NOT NULL,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "requestTokens" INTEGER,
    "model" TEXT,
    "status" "MessageStatus" NOT NULL DEFAULT 'complete',
    "error" TEXT,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "rewoundAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Compaction" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "kind" "CompactionKind" NOT NULL,
    "trigger" "CompactionTrigger" NOT NULL,
    "strategy" TEXT NOT NULL,
    "fromSeq" INTEGER NOT NULL,
    "toSeq" INTEGER NOT NULL,
    "summary" TEXT NOT NULL,
    "sections" JSONB,
    "summaryModel" TEXT,
    "instructions" TEXT,
    "summaryTokens" INTEGER NOT NULL,
    "coveredMessageCount" INTEGER NOT NULL,
    "coveredTokens" INTEGER NOT NULL,
    "messagesBefore" INTEGER NOT NULL,
    "messagesAfter" INTEGER NOT NULL,
    "tokensBefore" INTEGER NOT NULL,
    "tokensAfter" INTEGER NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "background" BOOLEAN NOT NULL DEFAULT false,
    "supersededById" TEXT,
    "undoneAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Compaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompactionAttempt" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "trigger" "CompactionTrigger" NOT NULL,
    "strategy" TEXT NOT NULL,
    "outcome" "AttemptOutcome" NOT NULL,
    "reason" TEXT NOT NULL,
    "error" TEXT,
    "model" TEXT,
    "background" BOOLEAN NOT NULL DEFAULT false,
    "compactionId" TEXT,
    "messagesBefore" INTEGER NOT NULL,
    "messagesAfter" INTEGER,
    "tokensBefore" INTEGER NOT NULL,
    "tokensAfter" INTEGER,
    "durationMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CompactionAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Settings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "values" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Settings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Conversation_updatedAt_idx" ON "Conversation"("updatedAt");

-- CreateIndex
CREATE INDEX "Message_conversationId_pinned_seq_idx" ON "Message"("conversationId", "pinned", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "Message_conversationId_seq_key" ON "Message"("conversationId", "seq");

-- CreateIndex
CREATE INDEX "Compaction_conversationId_supersededById_undoneAt_idx" ON "Compaction"("conversationId", "supersededById", "undoneAt");

-- CreateIndex
CREATE INDEX "Compaction_conversationId_fromSeq_idx" ON "Compaction"("conversationId", "fromSeq");

-- CreateIndex
CREATE INDEX "Compaction_supersededById_idx" ON "Compaction"("supersededById");

-- CreateIndex
CREATE INDEX "CompactionAttempt_conversationId_createdAt_idx" ON "CompactionAttempt"("conversationId", "createdAt");

-- CreateIndex
CREATE INDEX "CompactionAttempt_compactionId_idx" ON "CompactionAttempt"("compactionId");

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Compaction" ADD CONSTRAINT "Compaction_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Compaction" ADD CONSTRAINT "Compaction_supersededById_fkey" FOREIGN KEY ("supersededById") REFERENCES "Compaction"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompactionAttempt" ADD CONSTRAINT "CompactionAttempt_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompactionAttempt" ADD CONSTRAINT "CompactionAttempt_compactionId_fkey" FOREIGN KEY ("compactionId") REFERENCES "Compaction"("id") ON DELETE SET NULL ON UPDATE CASCADE;

