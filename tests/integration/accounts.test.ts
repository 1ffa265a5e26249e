// Accounts end to end through the auth library's HTTP endpoints and the app's route
// handlers: sessions, sign-out, tokens, sign-up policy, rate limits, and bad input that
// must be refused clearly without changing anything.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as conversationsRoute from "../../app/api/conversations/route";
import * as conversationRoute from "../../app/api/conversations/[id]/route";
import * as messagesRoute from "../../app/api/conversations/[id]/messages/route";
import * as compactRoute from "../../app/api/conversations/[id]/compact/route";
import * as healthRoute from "../../app/api/health/route";
import * as metricsRoute from "../../app/api/metrics/route";
import * as authRoute from "../../app/api/auth/[...all]/route";
import * as ops from "../../lib/chat/operations";
import { resetAuth } from "../../lib/auth/auth";
import { createAccount } from "../../lib/auth/accounts";
import { writeSignupsOpen } from "../../lib/db/instance";
import { appendMessages } from "../../lib/db/messages";
import { contextMeter } from "../../lib/chat/compressor";
import { rowCounts, saveTestSettings, send, setupHarness } from "../support/harness";
import { TEST_PASSWORD, bearer, signIn, signInResponse, signOut, signUp, uniqueEmail, withEnv } from "../support/accounts";

const h = setupHarness();
const BASE = "http://localhost/api";
const params = (id: string) => ({ params: Promise.resolve({ id }) });

function get(path: string, headers: Record<string, string>): Request {
  return new Request(`${BASE}${path}`, { headers });
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}


afterEach(async () => {
  await writeSignupsOpen(h.db, true);
});

describe("sessions", () => {
  let conversationId: string;
  beforeAll(async () => {
    conversationId = (await ops.createConversation(h.user, { title: "mine" })).id;
  });

  it("a session cookie opens the owner's conversation; without one the API answers 401", async () => {
    const cookie = await signIn(h.user.email, TEST_PASSWORD);
    expect((await conversationRoute.GET(get(`/conversations/${conversationId}`, { cookie }), params(conversationId))).status).toBe(200);
    const anonymous = await errorOf(await conversationRoute.GET(get(`/conversations/${conversationId}`, {}), params(conversationId)));
    expect(anonymous).toMatchObject({ status: 401, code: "unauthorized" });
    expect(anonymous.message).toMatch(/sign in/i);
  });

  it("the session cookie is httpOnly and SameSite", async () => {
    const response = await signInResponse(h.user.email, TEST_PASSWORD);
    const line = response.headers.getSetCookie().find((cookie) => cookie.includes("session_token="))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
  });

  it("signing out ends the session on the server: the same cookie stops working", async () => {
    const cookie = await signIn(h.user.email, TEST_PASSWORD);
    const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
    expect(await h.db.session.count({ where: { token } })).toBe(1);
    expect((await signOut(cookie)).status).toBe(200);
    expect(await h.db.session.count({ where: { token } })).toBe(0);
    const after = await errorOf(await conversationsRoute.GET(get("/conversations", { cookie })));
    expect(after).toMatchObject({ status: 401, code: "unauthorized" });
    expect(after.message).toMatch(/session has ended/i);
  });

  it("an expired session is refused with a clear message", async () => {
    const cookie = await signIn(h.user.email, TEST_PASSWORD);
    const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
    await h.db.session.updateMany({ where: { token }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const refused = await errorOf(await conversationsRoute.GET(get("/conversations", { cookie })));
    expect(refused).toMatchObject({ status: 401, code: "unauthorized" });
    expect(refused.message).toMatch(/session has ended/i);
  });

  it.each(["http://evil.example", "null"])("a cookie-authenticated change from another origin (%s) is refused", async (origin) => {
    const cookie = await signIn(h.user.email, TEST_PASSWORD);
    const before = await rowCounts(h.db);
    const response = await conversationsRoute.POST(
      new Request(`${BASE}/conversations`, {
        method: "POST",
        headers: { cookie, origin, host: "localhost", "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(await errorOf(response)).toMatchObject({ status: 403, code: "forbidden" });
    expect(await rowCounts(h.db)).toEqual(before);
  });
});

describe("where a change may come from", () => {
  const create = (headers: Record<string, string>) =>
    conversationsRoute.POST(new Request(`${BASE}/conversations`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" }));

  it("a cookie-authenticated change without an Origin is refused, and stores nothing", async () => {
    const cookie = await signIn(h.user.email, TEST_PASSWORD);
    const before = await rowCounts(h.db);
    const refused = await errorOf(await create({ cookie, host: "localhost" }));
    expect(refused).toMatchObject({ status: 403, code: "forbidden" });
    expect(refused.message).toMatch(/Origin header/);
    expect(await rowCounts(h.db)).toEqual(before);
    // What a browser sends: the same request with its Origin goes through.
    expect((await create({ cookie, host: "localhost", origin: "http://localhost" })).status).toBe(201);
  });

  it("the scheme counts: an http:// page cannot change anything on the https:// site", async () => {
    const cookie = await signIn(h.user.email, TEST_PASSWORD);
    await withEnv({ BETTER_AUTH_URL: "https://localhost" }, async () => {
      // Served over https, the library names the cookie __Secure-…: a session of its own.
      const cookie = await signIn(h.user.email, TEST_PASSWORD);
      const refused = await errorOf(await create({ cookie, host: "localhost", origin: "http://localhost" }));
      expect(refused).toMatchObject({ status: 403, code: "forbidden" });
      expect(refused.message).toMatch(/"http:\/\/localhost".*https:\/\/localhost/);
      expect((await create({ cookie, host: "localhost", origin: "https://localhost" })).status).toBe(201);
    });
    // Behind a configured proxy the scheme is the one it forwards.
    await withEnv({ STRATA_TRUSTED_PROXIES: "127.0.0.1/32" }, async () => {
      const forwarded = { cookie, host: "localhost", "x-forwarded-proto": "https" };
      expect((await errorOf(await create({ ...forwarded, origin: "http://localhost" }))).status).toBe(403);
      expect((await create({ ...forwarded, origin: "https://localhost" })).status).toBe(201);
    });
    // Without one, a client's X-Forwarded-Proto is not believed: Strata itself serves plain http.
    expect((await errorOf(await create({ cookie, host: "localhost", "x-forwarded-proto": "https", origin: "https://localhost" }))).status).toBe(403);
  });

  it("a request with an API token needs no Origin (no other site can make a browser send the header)", async () => {
    expect((await create({ ...(await bearer(h.user)), host: "localhost" })).status).toBe(201);
  });

  it("HSTS goes on responses served over https, never on plain http", async () => {
    const auth = await bearer(h.user);
    const hsts = async (headers: Record<string, string>) =>
      (await conversationsRoute.GET(new Request(`${BASE}/conversations`, { headers: { ...auth, host: "localhost", ...headers } }))).headers.get("strict-transport-security");
    expect(await hsts({})).toBeNull();
    expect(await hsts({ "x-forwarded-proto": "https" })).toBeNull();
    await withEnv({ STRATA_TRUSTED_PROXIES: "127.0.0.1/32" }, async () => {
      expect(await hsts({ "x-forwarded-proto": "https" })).toBe("max-age=31536000; includeSubDomains");
      expect(await hsts({ "x-forwarded-proto": "http" })).toBeNull();
    });
    await withEnv({ BETTER_AUTH_URL: "https://strata.example" }, async () => {
      expect(await hsts({})).toBe("max-age=31536000; includeSubDomains");
    });
  });

  it("the public routes (health, metrics, auth) carry HSTS over https too", async () => {
    const publicRoutes = async () => {
      const request = (path: string) => new Request(`${BASE}${path}`, { headers: { host: "localhost" } });
      return Promise.all([
        healthRoute.GET(request("/health")),
        metricsRoute.GET(request("/metrics")),
        authRoute.GET(request("/auth/get-session")),
      ]).then((responses) => responses.map((response) => response.headers.get("strict-transport-security")));
    };
    expect(await publicRoutes()).toEqual([null, null, null]);
    await withEnv({ BETTER_AUTH_URL: "https://strata.example" }, async () => {
      expect(await publicRoutes()).toEqual(Array(3).fill("max-age=31536000; includeSubDomains"));
    });
  });
});

describe("sign-in", () => {
  it("a wrong password and an unknown user get the same clear refusal, and nothing changes", async () => {
    const before = await rowCounts(h.db);
    const sessions = await h.db.session.count();
    for (const [email, password] of [
      [h.user.email, "not the password"],
      [uniqueEmail("nobody"), TEST_PASSWORD],
    ] as const) {
      const response = await signInResponse(email, password, "198.51.100.1");
      expect(response.status).toBe(401);
      expect(((await response.json()) as { message: string }).message).toMatch(/invalid email or password/i);
    }
    expect(await rowCounts(h.db)).toEqual(before);
    expect(await h.db.session.count()).toBe(sessions);
  });

  it("brute force is rate limited per client address: after the limit even the right password waits", async () => {
    await withEnv({ STRATA_SIGNIN_RATE_LIMIT: "3" }, async () => {
      const address = "192.0.2.44";
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++) statuses.push((await signInResponse(h.user.email, `guess ${attempt}`, address)).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const blocked = await signInResponse(h.user.email, TEST_PASSWORD, address);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("x-retry-after"))).toBeGreaterThan(0);
      // Another address is not affected.
      expect((await signInResponse(h.user.email, TEST_PASSWORD, "192.0.2.45")).status).toBe(200);
    });
  });
});

describe("personal API tokens", () => {
  it("are stored hashed, listed without their value, and a revoked one stops working at once", async () => {
    const created = await ops.createToken(h.user, "script");
    const headers = { authorization: `Bearer ${created.token}` };
    expect((await conversationsRoute.GET(get("/conversations", headers))).status).toBe(200);

    const row = await h.db.apikey.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.key).not.toContain(created.token);
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = await ops.listTokens(h.user);
    expect(listed.find((token) => token.id === created.id)).toMatchObject({ name: "script" });
    expect(JSON.stringify(listed)).not.toContain(created.token);

    await ops.revokeToken(h.user, created.id);
    const refused = await errorOf(await conversationsRoute.GET(get("/conversations", headers)));
    expect(refused).toMatchObject({ status: 401, code: "unauthorized" });
    expect(refused.message).toMatch(/revoked/);
  });

  it("an expired or disabled token is refused; one with a usage quota is counted down by the library", async () => {
    const headers = (token: string) => ({ authorization: `Bearer ${token}` });
    const statusWith = async (token: string) => (await conversationsRoute.GET(get("/conversations", headers(token)))).status;
    const expired = await ops.createToken(h.user, "expired");
    await h.db.apikey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await statusWith(expired.token)).toBe(401);
    const disabled = await ops.createToken(h.user, "disabled");
    await h.db.apikey.update({ where: { id: disabled.id }, data: { enabled: false } });
    expect(await statusWith(disabled.token)).toBe(401);
    const quota = await ops.createToken(h.user, "two calls");
    await h.db.apikey.update({ where: { id: quota.id }, data: { remaining: 2 } });
    expect([await statusWith(quota.token), await statusWith(quota.token), await statusWith(quota.token)]).toEqual([200, 200, 401]);
  });

  it("a token's use is recorded as its last-used time, at most once a minute", async () => {
    const created = await ops.createToken(h.user, "used");
    const lastUsed = async () => (await ops.listTokens(h.user)).find((token) => token.id === created.id)?.lastUsedAt ?? null;
    expect(await lastUsed()).toBeNull();
    expect((await conversationsRoute.GET(get("/conversations", { authorization: `Bearer ${created.token}` }))).status).toBe(200);
    // Written after the answer: wait for it.
    await expect.poll(lastUsed, { timeout: 5000 }).not.toBeNull();
    const first = await lastUsed();
    expect((await conversationsRoute.GET(get("/conversations", { authorization: `Bearer ${created.token}` }))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await lastUsed()).toBe(first);
  });

  it("another user cannot revoke my token (not found), and nothing changes", async () => {
    const other = await signUp();
    const created = await ops.createToken(h.user, "keep");
    const before = await rowCounts(h.db);
    await expect(ops.revokeToken(other, created.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it.each([
    ["no scheme", "abc"],
    ["Basic credentials", "Basic dXNlcjpwYXNz"],
    ["Bearer without a token", "Bearer "],
    ["a token of the wrong shape", "Bearer strata_123"],
    ["two tokens", "Bearer a b"],
  ])("a malformed Authorization header (%s) gets 401 with a clear message", async (_label, authorization) => {
    const before = await rowCounts(h.db);
    const refused = await errorOf(
      await conversationsRoute.POST(
        new Request(`${BASE}/conversations`, { method: "POST", headers: { authorization, "content-type": "application/json" }, body: "{}" }),
      ),
    );
    expect(refused).toMatchObject({ status: 401, code: "unauthorized" });
    expect(refused.message).toMatch(/Authorization header must be "Bearer strata_/);
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("a well-formed token nobody issued gets 401", async () => {
    const refused = await errorOf(await conversationsRoute.GET(get("/conversations", { authorization: `Bearer strata_${"a".repeat(48)}` })));
    expect(refused).toMatchObject({ status: 401, code: "unauthorized" });
  });
});

describe("sign-up policy", () => {
  it("closed sign-ups refuse a visitor with 403 and store nothing; the CLI's account creation still works", async () => {
    await writeSignupsOpen(h.db, false);
    const before = await h.db.user.count();
    await expect(signUp()).rejects.toThrow(/403.*closed/i);
    expect(await h.db.user.count()).toBe(before);
    const made = await createAccount(uniqueEmail("cli"), TEST_PASSWORD);
    expect(made.role).toBe("user");
    expect(await h.db.session.count({ where: { userId: made.id } })).toBe(0);
  });

  it("STRATA_SIGNUPS=closed closes them whatever the admin chose", async () => {
    await withEnv({ STRATA_SIGNUPS: "closed" }, async () => {
      await expect(signUp()).rejects.toThrow(/403/);
    });
  });

  it("a new account is never the admin unless it is the first, and cannot make itself one", async () => {
    const other = await signUp(uniqueEmail("climber"));
    expect(other.role).toBe("user");
    const { getAuth } = await import("../../lib/auth/auth");
    const email = uniqueEmail("sneaky");
    const response = await (await getAuth()).handler(
      new Request("http://localhost/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost" },
        body: JSON.stringify({ email, password: TEST_PASSWORD, name: "x", role: "admin" }),
      }),
    );
    // The role is not an input (the admin plugin marks it so): the request is refused and no account is made.
    expect(response.status).toBe(400);
    expect(await h.db.user.findUnique({ where: { email } })).toBeNull();
    expect((await h.db.user.findMany({ where: { role: "admin", email: { contains: "sneaky" } } })).length).toBe(0);
  });

  it("sign-up refuses a short password and an invalid email clearly, storing nothing", async () => {
    const before = await h.db.user.count();
    await expect(signUp(uniqueEmail(), "short")).rejects.toThrow(/400.*password is too short: use at least 12/i);
    await expect(signUp("not-an-email", TEST_PASSWORD)).rejects.toThrow(/400.*email/i);
    expect(await h.db.user.count()).toBe(before);
  });
});

describe("message sends per user", () => {
  it("past the limit a user gets 429 with a clear message; other users are not affected", async () => {
    await withEnv({ STRATA_MESSAGE_RATE_LIMIT: "2" }, async () => {
      const limited = await signUp();
      const other = await signUp();
      const send = async (user: typeof limited) => {
        const conversation = await ops.createConversation(user, {});
        return messagesRoute.POST(
          new Request(`${BASE}/conversations/${conversation.id}/messages`, {
            method: "POST",
            headers: { ...(await bearer(user)), "content-type": "application/json" },
            body: JSON.stringify({ content: "hello" }),
          }),
          params(conversation.id),
        );
      };
      expect((await send(limited)).status).toBe(200);
      expect((await send(limited)).status).toBe(200);
      const messages = await h.db.message.count();
      const refused = await errorOf(await send(limited));
      expect(refused).toMatchObject({ status: 429, code: "rate_limited" });
      expect(refused.message).toMatch(/at most 2 messages a minute/);
      expect(await h.db.message.count()).toBe(messages);
      expect((await send(other)).status).toBe(200);
    });
  });

  it("a new message is counted in the statement that stores it: busy and unknown conversations count too, and the limit refuses before anything is stored", async () => {
    await withEnv({ STRATA_MESSAGE_RATE_LIMIT: "3" }, async () => {
      const user = await signUp();
      const conversation = await ops.createConversation(user, {});
      const post = async (conversationId: string, body: Record<string, unknown>) =>
        messagesRoute.POST(
          new Request(`${BASE}/conversations/${conversationId}/messages`, {
            method: "POST",
            headers: { ...(await bearer(user)), "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
          params(conversationId),
        );
      const stored = () => h.db.message.count({ where: { conversationId: conversation.id } });
      expect((await post(conversation.id, { content: "one" })).status).toBe(200);
      // Another turn holds the conversation: refused as busy, and counted.
      await h.db.conversation.update({ where: { id: conversation.id }, data: { turnLeaseId: "another turn", turnLeaseUntil: new Date(Date.now() + 60_000) } });
      expect(await errorOf(await post(conversation.id, { content: "two" }))).toMatchObject({ status: 409, code: "busy" });
      await h.db.conversation.update({ where: { id: conversation.id }, data: { turnLeaseId: null, turnLeaseUntil: null } });
      expect((await post(conversation.id, { content: "three" })).status).toBe(200);
      const before = await stored();
      const refused = await errorOf(await post(conversation.id, { content: "four" }));
      expect(refused).toMatchObject({ status: 429, code: "rate_limited" });
      expect(refused.message).toMatch(/at most 3 messages a minute \(a compaction counts as one\)\. Try again in \d+ s\./);
      expect(await stored()).toBe(before);
      // An unknown conversation is not found, over the limit or not; a retry counts as a send.
      expect(await errorOf(await post("0193a9c1-0000-7000-8000-000000000000", { content: "five" }))).toMatchObject({ status: 404 });
      expect(await errorOf(await post(conversation.id, { retry: true }))).toMatchObject({ status: 429, code: "rate_limited" });
    });
  });

  /** Summary requests the model server has received so far. */
  const summaryCalls = () => h.server.requests.filter((request) => request.kind === "summary").length;

  it("compactions and their previews count too: past the limit 429 with the wait, and the summary model gets no request", async () => {
    await withEnv({ STRATA_MESSAGE_RATE_LIMIT: "3" }, async () => {
      const user = await signUp();
      const conversation = await ops.createConversation(user, { model: "gpt-4o-mini" });
      await appendMessages(
        h.db,
        user.id,
        conversation.id,
        Array.from({ length: 24 }, (_, index) =>
          index % 2 === 0
            ? { role: "user" as const, content: `Question ${index}`, tokenCount: 6 }
            : { role: "assistant" as const, content: `Answer ${index}`, tokenCount: 6, model: "gpt-4o-mini", status: "complete" as const },
        ),
      );
      const headers = { ...(await bearer(user)), "content-type": "application/json" };
      const compact = async (body: Record<string, unknown>) =>
        compactRoute.POST(
          new Request(`${BASE}/conversations/${conversation.id}/compact`, {
            method: "POST",
            headers,
            body: JSON.stringify(body),
          }),
          params(conversation.id),
        );
      const before = summaryCalls();
      for (const body of [{ instructions: "Keep the names.", preview: true }, { instructions: "Keep the dates.", preview: true }, { instructions: "Be brief." }]) {
        expect((await compact(body)).status).toBe(200);
      }
      expect(summaryCalls() - before).toBe(3);
      const stored = await rowCounts(h.db);
      const refused = await errorOf(await compact({ instructions: "Once more." }));
      expect(refused).toMatchObject({ status: 429, code: "rate_limited" });
      expect(refused.message).toMatch(/at most 3 messages a minute \(a compaction counts as one\)\. Try again in \d+ s\./);
      expect(summaryCalls() - before).toBe(3);
      expect(await rowCounts(h.db)).toEqual(stored);
      // So is every other way to a model call after them: one limit for all.
      const chats = h.server.requests.filter((request) => request.kind === "chat").length;
      for (const body of [{ content: "hello" }, { retry: true }, { editSeq: 23, content: "edited" }, { regenerateSeq: 24 }, { continueSeq: 24 }]) {
        const message = new Request(`${BASE}/conversations/${conversation.id}/messages`, { method: "POST", headers, body: JSON.stringify(body) });
        expect(await errorOf(await messagesRoute.POST(message, params(conversation.id))), JSON.stringify(body)).toMatchObject({ status: 429 });
      }
      expect(h.server.requests.filter((request) => request.kind === "chat").length).toBe(chats);
      expect(summaryCalls() - before).toBe(3);
    });
  });

  it("a turn's own automatic compaction is part of the turn, not counted again", async () => {
    const model = "gpt-4o-mini";
    const settings = { contextWindowOverrides: { [model]: 3000 }, hardLimitReserve: 300, threshold: 0.8, preemptiveThreshold: 0, keepRecentCount: 6, maxSummaryTokensPerLevel: 350 };
    await saveTestSettings(h.db, { ...settings, enabled: false });
    const conversation = await ops.createConversation(h.user, { model });
    for (let turn = 1; (await contextMeter(h.user.id, conversation.id)).ratio < 0.8; turn++) await send(conversation.id, `Filling ${turn} REPLY_WORDS=40`);
    await saveTestSettings(h.db, { ...settings, enabled: true });
    await withEnv({ STRATA_MESSAGE_RATE_LIMIT: "2" }, async () => {
      const before = summaryCalls();
      await send(conversation.id, "Over the threshold now REPLY_WORDS=5");
      expect(summaryCalls() - before, "the turn compacted first").toBeGreaterThan(0);
      // The turn counted once: one more request is allowed, the next one is not.
      await ops.compactNow(h.user, { conversationId: conversation.id, preview: true });
      const refused = await ops.compactNow(h.user, { conversationId: conversation.id, preview: true }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: "rate_limited" });
    });
  });

  it("are counted in an unlogged table: counting a send writes no WAL, so it waits for no disk flush", async () => {
    const rows = await h.db.$queryRaw<{ persistence: string }[]>`
      SELECT relpersistence::text AS persistence FROM pg_class WHERE relname = 'RateBucket' AND relkind = 'r'`;
    expect(rows).toEqual([{ persistence: "u" }]);
  });
});

describe("the auth secret", () => {
  it("is generated once and kept in the database: every process on it agrees, a restart keeps sessions valid", async () => {
    const { storedAuthSecret } = await import("../../lib/db/instance");
    const [a, b, c] = await Promise.all([storedAuthSecret(h.db), storedAuthSecret(h.db), storedAuthSecret(h.db)]);
    expect(a.length).toBeGreaterThanOrEqual(43);
    expect(new Set([a, b, c]).size).toBe(1);
    const cookie = await signIn(h.user.email, TEST_PASSWORD);
    // A new auth instance (as after a restart) reads the same secret and accepts the cookie.
    resetAuth();
    expect((await conversationsRoute.GET(get("/conversations", { cookie }))).status).toBe(200);
  });
});

describe("OAuth providers", () => {
  async function socialSignIn(provider: string): Promise<Response> {
    const { getAuth } = await import("../../lib/auth/auth");
    return (await getAuth()).handler(
      new Request("http://localhost/api/auth/sign-in/social", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost" },
        body: JSON.stringify({ provider, callbackURL: "/" }),
      }),
    );
  }

  it("are off unless both their variables are set; then sign-in goes to the provider and the form offers it", async () => {
    await withEnv({ GITHUB_CLIENT_ID: "", GITHUB_CLIENT_SECRET: "" }, async () => {
      expect((await socialSignIn("github")).status).toBeGreaterThanOrEqual(400);
      expect((await ops.signupState()).providers).toEqual([]);
    });
    // An id without its secret is not a provider.
    await withEnv({ GITHUB_CLIENT_ID: "strata-test-id", GITHUB_CLIENT_SECRET: "" }, async () => {
      expect((await socialSignIn("github")).status).toBeGreaterThanOrEqual(400);
      expect((await ops.signupState()).providers).toEqual([]);
    });
    await withEnv({ GITHUB_CLIENT_ID: "strata-test-id", GITHUB_CLIENT_SECRET: "strata-test-secret" }, async () => {
      const response = await socialSignIn("github");
      expect(response.status).toBe(200);
      const { url } = (await response.json()) as { url: string };
      expect(new URL(url).origin).toBe("https://github.com");
      expect(new URL(url).searchParams.get("client_id")).toBe("strata-test-id");
      expect((await ops.signupState()).providers).toEqual(["github"]);
    });
  });
});
