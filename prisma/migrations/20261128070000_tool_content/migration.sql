-- A tool server's content blocks (images, audio, resources) beside the text the model
-- reads, bounded, for the timeline's tool card (lib/mcp/content.ts). Null: text only.
ALTER TABLE "Message" ADD COLUMN "toolContent" JSONB;
