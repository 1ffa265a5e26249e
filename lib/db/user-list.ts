// The admin's list of accounts: one page at a time (an instance may have thousands),
// each row with what the user has and has spent. The cost is the account page's own
// figure (lib/db/prices.ts), so the two always agree.
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";
import { accountCost } from "./prices.ts";
import type { CostFigure } from "../pricing";
import type { UserRole } from "./users.ts";

export type UserListRow = {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  disabled: boolean;
  createdAt: string;
  /** The newest of: a session's last refresh, an API token's last use, a conversation's last change. */
  lastActiveAt: string | null;
  conversations: number;
  messages: number;
  usage: CostFigure;
};

export type UserListPage = { users: UserListRow[]; total: number; page: number; pageSize: number };

type Row = {
  id: string;
  name: string;
  email: string;
  role: string | null;
  banned: boolean | null;
  createdAt: Date;
  lastActiveAt: Date | null;
  conversations: number;
  messages: number;
};

/** Page `page` (from 1) of the users whose name or email contains `query` (all without one), oldest first. */
export async function listUsersPage(db: Db, options: { page: number; pageSize: number; query: string }): Promise<UserListPage> {
  const { page, pageSize, query } = options;
  const pattern = `%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const filter = query ? Prisma.sql`WHERE u.email ILIKE ${pattern} OR u.name ILIKE ${pattern}` : Prisma.empty;
  const [rows, totals] = await Promise.all([
    db.$queryRaw<Row[]>`
      SELECT u.id, u.name, u.email, u.role, u.banned, u."createdAt",
        GREATEST(
          (SELECT max(s."updatedAt") FROM "Session" s WHERE s."userId" = u.id),
          (SELECT max(k."lastRequest") FROM "Apikey" k WHERE k."referenceId" = u.id),
          (SELECT max(c."updatedAt") FROM "Conversation" c WHERE c."userId" = u.id)
        ) AS "lastActiveAt",
        (SELECT count(*)::int FROM "Conversation" c WHERE c."userId" = u.id) AS conversations,
        (SELECT count(*)::int FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId" WHERE c."userId" = u.id) AS messages
      FROM "User" u ${filter}
      ORDER BY u."createdAt", u.id
      LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM "User" u ${filter}`,
  ]);
  const usages = await Promise.all(rows.map((row) => accountCost(db, row.id)));
  return {
    users: rows.map((row, index) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role === "admin" ? "admin" : "user",
      disabled: row.banned === true,
      createdAt: row.createdAt.toISOString(),
      lastActiveAt: row.lastActiveAt?.toISOString() ?? null,
      conversations: row.conversations,
      messages: row.messages,
      usage: usages[index]!.total,
    })),
    total: totals[0]?.total ?? 0,
    page,
    pageSize,
  };
}
