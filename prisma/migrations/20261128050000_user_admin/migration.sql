-- Account management: the columns of better-auth's admin plugin. A disabled user is
-- "banned" (the plugin refuses them a new session); Strata never sets a ban reason or
-- expiry and has impersonation off, but the plugin checks this schema at run time.
ALTER TABLE "User" ADD COLUMN "banned" BOOLEAN DEFAULT false;
ALTER TABLE "User" ADD COLUMN "banReason" TEXT;
ALTER TABLE "User" ADD COLUMN "banExpires" TIMESTAMP(3);
ALTER TABLE "Session" ADD COLUMN "impersonatedBy" TEXT;

-- The admin's user list pages through users in creation order.
CREATE INDEX "User_createdAt_id_idx" ON "User"("createdAt", "id");
