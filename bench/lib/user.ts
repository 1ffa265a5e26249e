// The account a benchmark acts as, made like any other account (lib/auth/accounts.ts),
// and the header that authenticates its HTTP requests (pages and API alike).
import { randomUUID } from "node:crypto";
import { createAccount } from "../../lib/auth/accounts";
import { createToken } from "../../lib/auth/tokens";
import type { UserRecord } from "../../lib/db/users";

export async function benchUser(): Promise<UserRecord> {
  return createAccount(`bench-${randomUUID().slice(0, 8)}@example.com`, "benchmark password");
}

export async function benchAuthHeaders(user: UserRecord): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${(await createToken(user.id, "benchmark")).token}` };
}
