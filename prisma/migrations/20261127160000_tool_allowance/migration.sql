-- Tools a conversation's owner lets run without being asked ("always allow in this
-- conversation"), by tool server ('' for a tool Strata runs itself) and offered name.
CREATE TABLE "ToolAllowance" (
    "conversationId" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ToolAllowance_pkey" PRIMARY KEY ("conversationId","server","toolName")
);

ALTER TABLE "ToolAllowance" ADD CONSTRAINT "ToolAllowance_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
