-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "contextVersion" INTEGER NOT NULL DEFAULT 0;

-- The active context of a conversation changes when a message is updated or deleted
-- (pinned, hidden by a rewind, shown again, extended, its status changed) or when a
-- compaction is stored, undone, superseded or deleted. Every such statement moves the
-- conversation's contextVersion, whichever code (or process) ran it, so a copy of the
-- context kept in memory can be checked with one read (lib/db/transcript.ts). New
-- messages need no trigger: they always take numbers above "lastSeq", and are read by
-- number.
CREATE FUNCTION "strata_context_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Conversation" SET "contextVersion" = "contextVersion" + 1
  WHERE id IN (SELECT DISTINCT "conversationId" FROM changed_rows);
  RETURN NULL;
END
$$;

CREATE TRIGGER "Message_context_update" AFTER UPDATE ON "Message"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "strata_context_changed"();
CREATE TRIGGER "Message_context_delete" AFTER DELETE ON "Message"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "strata_context_changed"();
CREATE TRIGGER "Compaction_context_insert" AFTER INSERT ON "Compaction"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "strata_context_changed"();
CREATE TRIGGER "Compaction_context_update" AFTER UPDATE ON "Compaction"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "strata_context_changed"();
CREATE TRIGGER "Compaction_context_delete" AFTER DELETE ON "Compaction"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "strata_context_changed"();
