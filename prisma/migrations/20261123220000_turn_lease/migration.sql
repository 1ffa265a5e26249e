-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "turnLeaseId" TEXT,
ADD COLUMN     "turnLeaseUntil" TIMESTAMP(3);
