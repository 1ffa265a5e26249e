-- Model and instructions in the UI: a conversation's reply temperature (null: the
-- server's default), the user's defaults for new conversations (instructions and
-- temperature) and the admin's list of models for the picker.
ALTER TABLE "Conversation" ADD COLUMN "temperature" DOUBLE PRECISION;

ALTER TABLE "UserSettings" ADD COLUMN "instructions" TEXT NOT NULL DEFAULT '',
ADD COLUMN "temperature" DOUBLE PRECISION;

ALTER TABLE "Instance" ADD COLUMN "modelList" TEXT[] DEFAULT ARRAY[]::TEXT[];
