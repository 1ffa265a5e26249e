// Account and user management (issue 24, item 5): a user's own name, email and account
// deletion; the admin's user list, disable/enable, role change and reset links, with the
// last-admin guards. Through the operations and, where a browser or client would come
// in, the auth library's HTTP endpoints and the app's route handlers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as conversationsRoute from "../../app/api/conversations/route";
import * as authRoute from "../../app/api/auth/[...all]/route";
import * as ops from "../../lib/chat/operations";
import { USER_PAGE_SIZE } from "../../lib/chat/admin-user-ops";
import { appendMessages } from "../../lib/db/messages";
import { claimImport } from "../../lib/db/imports";
import { createMcpServer } from "../../lib/db/mcp-servers";
import { AppError } from "../../lib/errors";
import { userFromHeaders } from "../../lib/auth/current-user";
import { setupHarness } from "../support/harness";
import { TEST_PASSWORD, bearer, signIn, signInResponse, signUp, uniqueEmail, type TestUser } from "../support/accounts";

const h = setupHarness();
const MODEL = "gpt-4o-mini";
const NEW_PASSWORD = "plum orbit lantern cascade";

type Cookied = TestUser & { cookie: string };

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`Expected a refusal, got ${String(error)}`);
  return error;
}

const asAdmin = (user: { id: string }) => ({ id: user.id, role: "admin" as const });
const asUser = (user: { id: string; email: string }) => ({ id: user.id, email: user.email, role: "user" as const });

function listConversations(headers: Record<string, string>): Promise<Response> {
  return conversationsRoute.GET(new Request("http://localhost/api/conversations", { headers }));
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error?: { code: string; message: string }; code?: string; message?: string };
  return { status: response.status, code: body.error?.code ?? body.code ?? "", message: body.error?.message ?? body.message ?? "" };
}

function resetPassword(token: string, newPassword = NEW_PASSWORD): Promise<Response> {
  return authRoute.POST(
    new Request("http://localhost/api/auth/reset-password", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify({ token, newPassword }),
    }),
  );
}

const tokenOf = (link: { path: string }) => new URL(link.path, "http://localhost").searchParams.get("token")!;

/**
 * Runs `work` with every admin but `keep` demoted, so a last-admin rule can be met in a
 * database other files share; the roles are put back afterwards.
 */
async function withOnlyAdmins<T>(keep: string[], work: () => Promise<T>): Promise<T> {
  const others = await h.db.user.findMany({ where: { role: "admin", id: { notIn: keep } }, select: { id: true } });
  const ids = others.map((row) => row.id);
  await h.db.user.updateMany({ where: { id: { in: ids } }, data: { role: "user" } });
  await h.db.user.updateMany({ where: { id: { in: keep } }, data: { role: "admin" } });
  try {
    return await work();
  } finally {
    await h.db.user.updateMany({ where: { id: { in: ids } }, data: { role: "admin" } });
  }
}

/** A user with one of everything an account owns: conversation, messages, compaction, token, settings, import, tool-server switch, reset link. */
async function populate(user: Cookied, serverId: string): Promise<string> {
  const { id: conversationId } = await ops.createConversation(user, { title: "owned", model: MODEL });
  await appendMessages(h.db, user.id, conversationId, [
    { role: "user", content: "a question", tokenCount: 3 },
    { role: "assistant", content: "an answer", tokenCount: 3, model: MODEL, status: "complete", usage: { promptTokens: 1000, cachedTokens: 0, completionTokens: 500 } },
  ]);
  await h.db.compaction.create({
    data: {
      conversationId, level: 1, kind: "summary", trigger: "manual", strategy: "ai_summary", fromSeq: 1, toSeq: 2,
      summary: "The exchange.", summaryTokens: 3, coveredMessageCount: 2, coveredTokens: 6,
      messagesBefore: 2, messagesAfter: 1, tokensBefore: 6, tokensAfter: 3, durationMs: 1,
    },
  });
  await h.db.compactionAttempt.create({
    data: { conversationId, trigger: "manual", strategy: "ai_summary", outcome: "skipped", reason: "fixture", messagesBefore: 2, tokensBefore: 6, durationMs: 1 },
  });
  await h.db.toolAllowance.create({ data: { conversationId, server: "", toolName: "recall" } });
  await h.db.conversationMcpServer.create({ data: { conversationId, serverId, on: true } });
  await ops.createToken(user, { name: "cli" });
  await h.db.userSettings.upsert({ where: { userId: user.id }, create: { userId: user.id, values: { keepRecent: 3 } }, update: {} });
  await claimImport(h.db, user.id, []);
  await h.db.verification.create({ data: { id: `v-${user.id}`, identifier: `reset-password:t-${user.id}`, value: user.id, expiresAt: new Date(Date.now() + 60_000) } });
  return conversationId;
}

/** Every row that belongs to `userId`, table by table (the user's conversations' rows included). */
async function rowsOf(userId: string, conversationIds: string[]): Promise<Record<string, number>> {
  const byConversation = await h.db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'conversationId'`;
  const counts: Record<string, number> = {
    User: await h.db.user.count({ where: { id: userId } }),
    Session: await h.db.session.count({ where: { userId } }),
    Account: await h.db.account.count({ where: { userId } }),
    Apikey: await h.db.apikey.count({ where: { referenceId: userId } }),
    UserSettings: await h.db.userSettings.count({ where: { userId } }),
    ConversationImport: await h.db.conversationImport.count({ where: { userId } }),
    Verification: await h.db.verification.count({ where: { value: userId } }),
    Conversation: await h.db.conversation.count({ where: { OR: [{ userId }, { id: { in: conversationIds } }] } }),
  };
  for (const { table_name: table } of byConversation) {
    // An import names the conversation it made; it is the user's by its userId (counted above).
    if (table in counts) continue;
    const [row] = await h.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${table}" WHERE "conversationId" = ANY($1)`, conversationIds);
    counts[table] = row!.n;
  }
  return counts;
}

describe("name and email", () => {
  let user: Cookied;
  beforeAll(async () => {
    user = await signUp(uniqueEmail("profile"));
  });

  it("the name changes without a password; the email is kept", async () => {
    const saved = await ops.updateProfile(asUser(user), { name: "  Ada L.  ", email: user.email });
    expect(saved).toMatchObject({ name: "Ada L.", email: user.email });
  });

  it("a new email needs the current password: missing or wrong, nothing changes", async () => {
    const email = uniqueEmail("moved");
    for (const currentPassword of [undefined, "not my password at all"]) {
      const error = await refusal(ops.updateProfile(asUser(user), { name: "Ada", email, ...(currentPassword ? { currentPassword } : {}) }));
      expect(error.code).toBe("invalid_input");
      expect(error.message).toMatch(/current password is wrong/i);
    }
    expect((await h.db.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
  });

  it("with the password the email changes (stored lower-case) and signs in from then on", async () => {
    const email = uniqueEmail("Moved").replace("moved", "MOVED");
    const saved = await ops.updateProfile(asUser(user), { name: "Ada", email, currentPassword: TEST_PASSWORD });
    expect(saved.email).toBe(email.toLowerCase());
    expect((await signInResponse(email.toLowerCase(), TEST_PASSWORD)).status).toBe(200);
    expect((await signInResponse(user.email, TEST_PASSWORD)).status).toBe(401);
    user = { ...user, email: saved.email };
  });

  it("another account's email is refused clearly", async () => {
    const error = await refusal(ops.updateProfile(asUser(user), { name: "Ada", email: h.user.email.toUpperCase(), currentPassword: TEST_PASSWORD }));
    expect(error.code).toBe("conflict");
    expect(error.message).toMatch(/another account uses this email/i);
  });

  it.each([
    ["not an address", { name: "Ada", email: "nope" }],
    ["an address over 254 characters", { name: "Ada", email: `${"a".repeat(250)}@example.com` }],
    ["an empty name", { name: "   ", email: "x@example.com" }],
    ["a name over 100 characters", { name: "n".repeat(101), email: "x@example.com" }],
  ])("%s is invalid input and changes nothing", async (_label, input) => {
    const before = await h.db.user.findUniqueOrThrow({ where: { id: user.id } });
    const error = await refusal(ops.updateProfile(asUser(user), { ...input, currentPassword: TEST_PASSWORD }));
    expect(error.code).toBe("invalid_input");
    expect(await h.db.user.findUniqueOrThrow({ where: { id: user.id } })).toEqual(before);
  });
});

describe("deleting one's account", () => {
  let serverId: string;
  beforeAll(async () => {
    serverId = (await createMcpServer(h.db, { name: `acct-${Date.now()}`, transport: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} }, enabled: true, onByDefault: false })).id;
  });
  afterAll(async () => {
    await h.db.mcpServer.deleteMany({ where: { id: serverId } });
  });

  it("a wrong confirmation deletes nothing", async () => {
    const user = await signUp(uniqueEmail("keep"));
    const conversationId = await populate(user, serverId);
    const before = await rowsOf(user.id, [conversationId]);
    for (const confirmation of ["wrong password", user.email]) {
      const error = await refusal(ops.deleteAccount(asUser(user), { confirmation }));
      expect(error.message).toMatch(/does not match/i);
    }
    expect((await refusal(ops.deleteAccount(asUser(user), { confirmation: "" }))).code).toBe("invalid_input");
    expect(await rowsOf(user.id, [conversationId])).toEqual(before);
  });

  it("removes every row of that user and none of another's", async () => {
    const [gone, kept] = [await signUp(uniqueEmail("gone")), await signUp(uniqueEmail("kept"))];
    const goneConversation = await populate(gone, serverId);
    const keptConversation = await populate(kept, serverId);
    const keptBefore = await rowsOf(kept.id, [keptConversation]);
    const goneBefore = await rowsOf(gone.id, [goneConversation]);
    // Every kind of row Strata has was made, so "all zero" after means deleted, not never made.
    const made = ["User", "Session", "Account", "Apikey", "UserSettings", "ConversationImport", "Verification", "Conversation", "Message", "Compaction", "CompactionAttempt", "ToolAllowance", "ConversationMcpServer"];
    expect(made.filter((table) => !goneBefore[table])).toEqual([]);

    await ops.deleteAccount(asUser(gone), { confirmation: TEST_PASSWORD });

    const goneAfter = await rowsOf(gone.id, [goneConversation]);
    expect(Object.values(goneAfter).every((count) => count === 0), JSON.stringify(goneAfter)).toBe(true);
    expect(await rowsOf(kept.id, [keptConversation])).toEqual(keptBefore);
    // The deleted account's cookie opens nothing.
    expect((await listConversations({ cookie: gone.cookie })).status).toBe(401);
    expect((await listConversations({ cookie: kept.cookie })).status).toBe(200);
  });

  it("the last admin cannot delete themselves while other users exist; once another is admin, they can", async () => {
    const admin = await signUp(uniqueEmail("lastadmin"));
    const next = await signUp(uniqueEmail("nextadmin"));
    await withOnlyAdmins([admin.id], async () => {
      const error = await refusal(ops.deleteAccount({ ...asAdmin(admin), email: admin.email }, { confirmation: TEST_PASSWORD }));
      expect(error.code).toBe("conflict");
      expect(error.message).toMatch(/last admin.*make someone else an admin/i);
      expect(await h.db.user.count({ where: { id: admin.id } })).toBe(1);
      await ops.setUserRole(asAdmin(admin), { userId: next.id, role: "admin" });
      await ops.deleteAccount({ ...asAdmin(admin), email: admin.email }, { confirmation: TEST_PASSWORD });
    });
    expect(await h.db.user.count({ where: { id: admin.id } })).toBe(0);
    await h.db.user.update({ where: { id: next.id }, data: { role: "user" } });
  });
});

describe("the admin's user list", () => {
  const BULK = 1_030;
  const bulkPrefix = `bulk-${Date.now()}-`;
  let admin: Cookied;
  let member: Cookied;
  beforeAll(async () => {
    admin = await signUp(uniqueEmail("listadmin"));
    member = await signUp(uniqueEmail("member"));
    await h.db.user.update({ where: { id: admin.id }, data: { role: "admin" } });
    await h.db.user.createMany({
      data: Array.from({ length: BULK }, (_, index) => ({ id: `${bulkPrefix}${index}`, name: `Bulk ${index}`, email: `${bulkPrefix}${index}@example.com` })),
    });
  });
  afterAll(async () => {
    await h.db.user.deleteMany({ where: { id: { startsWith: bulkPrefix } } });
    await h.db.modelPrice.deleteMany({ where: { model: "acct-priced" } });
  });

  it("is refused to anyone but an admin", async () => {
    for (const work of [
      ops.listUsers(asUser(member), {}),
      ops.setUserDisabled(asUser(member), { userId: admin.id, disabled: true }),
      ops.setUserRole(asUser(member), { userId: member.id, role: "admin" }),
      ops.createResetLink(asUser(member), admin.id),
    ]) {
      expect((await refusal(work)).code).toBe("forbidden");
    }
    expect((await h.db.user.findUniqueOrThrow({ where: { id: member.id } })).role).toBe("user");
  });

  it("pages through more than a thousand users, and finds one by name or email", async () => {
    const first = await ops.listUsers(asAdmin(admin), { page: 1 });
    expect(first.users).toHaveLength(USER_PAGE_SIZE);
    expect(first.total).toBeGreaterThanOrEqual(BULK + 2);
    const lastPage = Math.ceil(first.total / USER_PAGE_SIZE);
    const last = await ops.listUsers(asAdmin(admin), { page: lastPage });
    expect(last.users.length).toBe(first.total - (lastPage - 1) * USER_PAGE_SIZE);
    const beyond = await ops.listUsers(asAdmin(admin), { page: lastPage + 1 });
    expect(beyond.users).toEqual([]);
    const found = await ops.listUsers(asAdmin(admin), { query: `${bulkPrefix}1029@` });
    expect(found.users.map((user) => user.id)).toEqual([`${bulkPrefix}1029`]);
    // A LIKE wildcard in the search is a character, not a pattern.
    expect((await ops.listUsers(asAdmin(admin), { query: "%" })).total).toBeLessThan(first.total);
    expect((await refusal(ops.listUsers(asAdmin(admin), { page: 0 }))).code).toBe("invalid_input");
  });

  it("shows each user's conversations, messages, tokens and cost at the admin's prices", async () => {
    await ops.savePrice(asAdmin(admin), { model: "acct-priced", inputPerMillion: 2, cachedInputPerMillion: 1, outputPerMillion: 10 });
    const { id } = await ops.createConversation(member, { title: "used", model: "acct-priced" });
    await appendMessages(h.db, member.id, id, [
      { role: "user", content: "q", tokenCount: 1 },
      { role: "assistant", content: "a", tokenCount: 1, model: "acct-priced", status: "complete", usage: { promptTokens: 1_000_000, cachedTokens: 0, completionTokens: 100_000 } },
    ]);
    const row = (await ops.listUsers(asAdmin(admin), { query: member.email })).users[0]!;
    expect(row).toMatchObject({ email: member.email, role: "user", disabled: false, conversations: 1, messages: 2 });
    expect(row.usage).toMatchObject({ promptTokens: 1_000_000, completionTokens: 100_000 });
    // 1M input at $2 + 100k output at $10 per million.
    expect(row.usage.cost).toBeCloseTo(3, 6);
    expect(row.lastActiveAt).not.toBeNull();
  });
});

describe("disable and enable", () => {
  let admin: Cookied;
  let target: Cookied;
  beforeAll(async () => {
    admin = await signUp(uniqueEmail("disabler"));
    target = await signUp(uniqueEmail("target"));
    await h.db.user.update({ where: { id: admin.id }, data: { role: "admin" } });
  });

  it("a disabled user's open session ends at once, their token is refused and sign-in says why", async () => {
    const token = await bearer(target);
    expect((await listConversations({ cookie: target.cookie })).status).toBe(200);
    expect((await listConversations(token)).status).toBe(200);

    await ops.setUserDisabled(asAdmin(admin), { userId: target.id, disabled: true });

    expect(await h.db.session.count({ where: { userId: target.id } })).toBe(0);
    expect((await listConversations({ cookie: target.cookie })).status).toBe(401);
    const refusedToken = await errorOf(await listConversations(token));
    expect(refusedToken).toMatchObject({ status: 401, code: "unauthorized" });
    expect(refusedToken.message).toMatch(/account is disabled/i);
    const signInRefused = await errorOf(await signInResponse(target.email, TEST_PASSWORD));
    expect(signInRefused.status).toBe(403);
    expect(signInRefused.message).toMatch(/account is disabled/i);
    expect(await h.db.session.count({ where: { userId: target.id } })).toBe(0);
    expect((await ops.listUsers(asAdmin(admin), { query: target.email })).users[0]).toMatchObject({ disabled: true });

    await ops.setUserDisabled(asAdmin(admin), { userId: target.id, disabled: false });
    expect((await listConversations(token)).status).toBe(200);
    const cookie = await signIn(target.email, TEST_PASSWORD);
    expect((await listConversations({ cookie })).status).toBe(200);
  });

  it("a session that outlived its account's disabling (made in the same instant) is refused; a live one carries the role", async () => {
    const late = await signUp(uniqueEmail("late"));
    await h.db.user.update({ where: { id: late.id }, data: { role: "admin" } });
    expect(await userFromHeaders(new Headers({ cookie: late.cookie }))).toEqual({ id: late.id, email: late.email, name: expect.any(String), role: "admin" });

    // What disabling does to the user's row, without the deletion of the sessions that follows it.
    await h.db.user.update({ where: { id: late.id }, data: { banned: true } });
    expect(await h.db.session.count({ where: { userId: late.id } })).toBeGreaterThan(0);
    const refused = await refusal(userFromHeaders(new Headers({ cookie: late.cookie })));
    expect(refused.code).toBe("unauthorized");
    expect((await listConversations({ cookie: late.cookie })).status).toBe(401);
  });

  it("an admin cannot disable themselves; an unknown user is not found", async () => {
    const self = await refusal(ops.setUserDisabled(asAdmin(admin), { userId: admin.id, disabled: true }));
    expect(self.message).toMatch(/cannot disable your own account/i);
    expect((await h.db.user.findUniqueOrThrow({ where: { id: admin.id } })).banned).toBe(false);
    expect((await refusal(ops.setUserDisabled(asAdmin(admin), { userId: "no-such-user", disabled: true }))).code).toBe("not_found");
  });

  it("the admin plugin's own endpoints are not served (no impersonation, no way around the guards)", async () => {
    for (const path of ["impersonate-user", "set-role", "ban-user", "remove-user", "list-users"]) {
      const response = await authRoute.POST(
        new Request(`http://localhost/api/auth/admin/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: "http://localhost", cookie: admin.cookie },
          body: JSON.stringify({ userId: target.id, role: "admin" }),
        }),
      );
      expect(response.status, path).toBe(404);
    }
    expect((await h.db.user.findUniqueOrThrow({ where: { id: target.id } })).role).toBe("user");
  });
});

describe("role change", () => {
  it("makes a user an admin and back; the last admin cannot be demoted", async () => {
    const admin = await signUp(uniqueEmail("roleadmin"));
    const other = await signUp(uniqueEmail("roleuser"));
    await withOnlyAdmins([admin.id], async () => {
      const error = await refusal(ops.setUserRole(asAdmin(admin), { userId: admin.id, role: "user" }));
      expect(error.code).toBe("conflict");
      expect(error.message).toMatch(/last admin/i);
      await ops.setUserRole(asAdmin(admin), { userId: other.id, role: "admin" });
      expect((await h.db.user.findUniqueOrThrow({ where: { id: other.id } })).role).toBe("admin");
      // Now there are two: either may step down, but not both.
      await ops.setUserRole(asAdmin(admin), { userId: admin.id, role: "user" });
      const last = await refusal(ops.setUserRole(asAdmin(other), { userId: other.id, role: "user" }));
      expect(last.message).toMatch(/last admin/i);
      await ops.setUserRole(asAdmin(other), { userId: admin.id, role: "admin" });
    });
    await h.db.user.updateMany({ where: { id: { in: [admin.id, other.id] } }, data: { role: "user" } });
    expect((await refusal(ops.setUserRole(asAdmin(admin), { userId: other.id, role: "owner" as "admin" }))).code).toBe("invalid_input");
  });

  it("a disabled admin does not count as the remaining admin", async () => {
    const admin = await signUp(uniqueEmail("activeadmin"));
    const sleeper = await signUp(uniqueEmail("disabledadmin"));
    await withOnlyAdmins([admin.id, sleeper.id], async () => {
      await ops.setUserDisabled(asAdmin(admin), { userId: sleeper.id, disabled: true });
      expect((await refusal(ops.setUserRole(asAdmin(admin), { userId: admin.id, role: "user" }))).message).toMatch(/last admin/i);
    });
    await h.db.user.updateMany({ where: { id: { in: [admin.id, sleeper.id] } }, data: { role: "user", banned: false } });
  });
});

describe("password reset links", () => {
  let admin: Cookied;
  beforeAll(async () => {
    admin = await signUp(uniqueEmail("resetter"));
    await h.db.user.update({ where: { id: admin.id }, data: { role: "admin" } });
  });

  it("sets a new password once, ends the user's sessions, and is refused the second time", async () => {
    const user = await signUp(uniqueEmail("forgetful"));
    const link = await ops.createResetLink(asAdmin(admin), user.id);
    expect(link.path).toMatch(/^\/reset-password\?token=/);
    const lifetime = new Date(link.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(55 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000);

    expect((await resetPassword(tokenOf(link))).status).toBe(200);
    expect(await h.db.session.count({ where: { userId: user.id } })).toBe(0);
    expect((await listConversations({ cookie: user.cookie })).status).toBe(401);
    expect((await signInResponse(user.email, TEST_PASSWORD)).status).toBe(401);
    expect((await signInResponse(user.email, NEW_PASSWORD)).status).toBe(200);

    const again = await errorOf(await resetPassword(tokenOf(link), "another fine passphrase"));
    expect(again).toMatchObject({ status: 400, code: "INVALID_TOKEN" });
    expect((await signInResponse(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("an expired link is refused and changes nothing", async () => {
    const user = await signUp(uniqueEmail("late"));
    const link = await ops.createResetLink(asAdmin(admin), user.id);
    await h.db.verification.updateMany({ where: { identifier: `reset-password:${tokenOf(link)}` }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await errorOf(await resetPassword(tokenOf(link)))).toMatchObject({ status: 400, code: "INVALID_TOKEN" });
    expect((await signInResponse(user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it("a newer link replaces the older one; an unknown user is not found", async () => {
    const user = await signUp(uniqueEmail("twice"));
    const older = await ops.createResetLink(asAdmin(admin), user.id);
    const newer = await ops.createResetLink(asAdmin(admin), user.id);
    expect((await resetPassword(tokenOf(older))).status).toBe(400);
    expect((await resetPassword(tokenOf(newer))).status).toBe(200);
    expect((await refusal(ops.createResetLink(asAdmin(admin), "no-such-user"))).code).toBe("not_found");
  });
});
