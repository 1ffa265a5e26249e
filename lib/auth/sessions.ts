// The user's signed-in sessions for the account page: listed without their tokens,
// the one making the request marked, any of them ended by id.
import { getDb } from "../db/client";
import { deleteUserSession, listSessions } from "../db/users";
import type { SessionView } from "../views";
import { getAuth } from "./auth";

async function currentSessionId(requestHeaders: Headers): Promise<string | null> {
  return (await (await getAuth()).api.getSession({ headers: requestHeaders }))?.session.id ?? null;
}

export async function sessionsOf(userId: string, requestHeaders: Headers): Promise<SessionView[]> {
  const [rows, current] = await Promise.all([listSessions(await getDb(), userId), currentSessionId(requestHeaders)]);
  return rows.map((row) => ({
    id: row.id,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastActiveAt: row.updatedAt.toISOString(),
    current: row.id === current,
  }));
}

export async function endSession(userId: string, sessionId: string): Promise<void> {
  await deleteUserSession(await getDb(), userId, sessionId);
}
