-- "Undo this compaction" (lib/db/undo.ts) marks the record undone like a rewind does
-- ("undoneAt") and records who asked for it. Null on records undone by a rewind or an
-- edit: those ranges left the conversation with the rewound messages, while a record
-- undone by its owner stays in the timeline, marked undone, above the messages it gave back.
ALTER TABLE "Compaction" ADD COLUMN "undoneBy" TEXT;
