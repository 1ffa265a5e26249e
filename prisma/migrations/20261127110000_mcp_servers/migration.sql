-- Tool servers (Model Context Protocol) the admin configures for the whole instance, and
-- each conversation's own switch for them. `transport` holds the validated connection
-- (stdio command/args/env or HTTP url/headers); env and header values are secrets that
-- never leave the server. A conversation without a row for a server uses the server's
-- `onByDefault`.
CREATE TABLE "McpServer" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "transport" JSONB NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "onByDefault" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpServer_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "McpServer_name_key" ON "McpServer"("name");

CREATE TABLE "ConversationMcpServer" (
    "conversationId" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "on" BOOLEAN NOT NULL,

    CONSTRAINT "ConversationMcpServer_pkey" PRIMARY KEY ("conversationId","serverId")
);

CREATE INDEX "ConversationMcpServer_serverId_idx" ON "ConversationMcpServer"("serverId");

ALTER TABLE "ConversationMcpServer" ADD CONSTRAINT "ConversationMcpServer_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ConversationMcpServer" ADD CONSTRAINT "ConversationMcpServer_serverId_fkey" FOREIGN KEY ("serverId") REFERENCES "McpServer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
