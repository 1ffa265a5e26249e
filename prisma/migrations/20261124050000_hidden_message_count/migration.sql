-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "hiddenMessageCount" INTEGER NOT NULL DEFAULT 0;

-- Conversations from before this column: count what is hidden today.
UPDATE "Conversation" c
SET "hiddenMessageCount" = (SELECT count(*) FROM "Message" m WHERE m."conversationId" = c.id AND m."rewoundAt" IS NOT NULL);
