-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "sourceCompactionId" TEXT,
ADD COLUMN     "sourceConversationId" TEXT;

