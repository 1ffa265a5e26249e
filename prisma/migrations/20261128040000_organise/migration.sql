-- Organise conversations: pinned to the top of the sidebar, archived out of its main
-- list (search still finds them). Timestamps rather than flags: the pinned group is
-- ordered by when each was pinned, and the archive by when each was archived.
ALTER TABLE "Conversation" ADD COLUMN "pinnedAt" TIMESTAMP(3);
ALTER TABLE "Conversation" ADD COLUMN "archivedAt" TIMESTAMP(3);

-- The sidebar's pages: a user's unarchived conversations, newest first, by keyset.
CREATE INDEX "Conversation_userId_archivedAt_updatedAt_id_idx" ON "Conversation"("userId", "archivedAt", "updatedAt" DESC, "id" DESC);
