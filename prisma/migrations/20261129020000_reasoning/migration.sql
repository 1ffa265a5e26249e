-- A reasoning model's thinking, stored beside its reply (never part of its content).
ALTER TABLE "Message" ADD COLUMN "reasoning" TEXT;
