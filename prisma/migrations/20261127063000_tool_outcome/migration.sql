-- How a tool call ended (done, failed, denied by the user), how long it ran and which
-- tool server ran it, on the tool's result message. Null on results from before.
CREATE TYPE "ToolOutcome" AS ENUM ('done', 'failed', 'denied');

ALTER TABLE "Message" ADD COLUMN "toolOutcome" "ToolOutcome",
ADD COLUMN "toolDurationMs" INTEGER,
ADD COLUMN "toolServer" TEXT;
