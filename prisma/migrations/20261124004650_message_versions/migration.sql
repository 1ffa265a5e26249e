-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "branchOf" TEXT,
ADD COLUMN     "versionOf" TEXT;

-- CreateIndex
CREATE INDEX "Message_conversationId_versionOf_idx" ON "Message"("conversationId", "versionOf");

-- CreateIndex
CREATE INDEX "Message_conversationId_branchOf_idx" ON "Message"("conversationId", "branchOf");

