// The account a benchmark acts as, made like any other account (lib/auth/accounts.ts),
// and the header that authenticates its HTTP requests (pages and API alike).
import { randomUUID } from "node:crypto";
import { createAccount } from "../../lib/auth/accounts";
import { createToken } from "../../lib/auth/tokens";
import type { UserRecord } from "../../lib/db/users";

const PASSWORD = "benchmark password";

export async function benchUser(): Promise<UserRecord> {
  return createAccount(`bench-${randomUUID().slice(0, 8)}@example.com`, PASSWORD);
}

/** A browser's credentials: the session cookie that signing in on `baseUrl` sets. */
export async function benchSessionHeaders(baseUrl: string, user: UserRecord): Promise<{ cookie: string }> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in: HTTP ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ");
  if (!cookie) throw new Error("sign-in set no cookie");
  return { cookie };
}

export async function benchAuthHeaders(user: UserRecord): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${(await createToken(user.id, "benchmark")).token}` };
}
