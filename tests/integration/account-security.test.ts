// The account holes of an audit, closed: sign-in limits that a client-sent
// X-Forwarded-For cannot dodge (per address and per account), bounded bodies and
// fields on /api/auth, token management only from the browser's session, a password
// change that ends the other sessions, and the password rule for new passwords.
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as authRoute from "../../app/api/auth/[...all]/route";
import * as conversationsRoute from "../../app/api/conversations/route";
import { getAuth } from "../../lib/auth/auth";
import { PEER_HEADER } from "../../lib/auth/client-address";
import type { ActionResult } from "../../lib/errors";
import type { SessionView, TokenView } from "../../lib/views";
import { setupHarness } from "../support/harness";
import { TEST_PASSWORD, bearer, signIn, signInResponse, signUp, uniqueEmail, withEnv } from "../support/accounts";

// Server actions read the request's headers through next/headers.
let actionHeaders = new Headers();
vi.mock("next/headers", () => ({ headers: async () => actionHeaders }));
const actions = await import("../../app/actions");
const ops = await import("../../lib/chat/operations");

const h = setupHarness();
const ORIGIN = "http://localhost";

function authPost(path: string, body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, [PEER_HEADER]: "198.51.100.200", ...headers },
    body,
    // A streamed body needs it.
    duplex: "half",
  } as RequestInit);
}

async function listConversations(headers: Record<string, string>): Promise<number> {
  return (await conversationsRoute.GET(new Request(`${ORIGIN}/api/conversations`, { headers }))).status;
}

async function asHeaders<T>(headers: Record<string, string>, action: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  actionHeaders = new Headers(headers);
  return action();
}

const messageOf = async (response: Response) => ((await response.json()) as { message: string }).message;

describe("sign-in limit per client address", () => {
  it("without trusted proxies, a rotating X-Forwarded-For does not escape the limit of the socket's address", async () => {
    await withEnv({ STRATA_SIGNIN_RATE_LIMIT: "5" }, async () => {
      const statuses: number[] = [];
      // Fifty guesses at fifty accounts (so the per-account limit plays no part), each claiming another address.
      for (let attempt = 0; attempt < 50; attempt++) {
        const response = await signInResponse(uniqueEmail("spray"), "wrong password", "198.51.100.7", { "x-forwarded-for": `203.0.113.${attempt}` });
        statuses.push(response.status);
      }
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    });
  });

  it("with trusted proxies, the address their X-Forwarded-For names is the client's", async () => {
    await withEnv({ STRATA_SIGNIN_RATE_LIMIT: "5", STRATA_TRUSTED_PROXIES: "10.0.0.0/8" }, async () => {
      const viaProxy = (client: string) => signInResponse(uniqueEmail("proxied"), "wrong password", "10.1.2.3", { "x-forwarded-for": client });
      // Ten clients behind the proxy: each has a limit of its own.
      for (let client = 0; client < 10; client++) expect((await viaProxy(`192.0.2.${client}`)).status).toBe(401);
      // One client behind it is limited like any other.
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 7; attempt++) statuses.push((await viaProxy("192.0.2.100")).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
      // A client talking to the app directly cannot pose as the proxy's client.
      const direct = (await signInResponse(uniqueEmail("direct"), "wrong password", "198.51.100.9", { "x-forwarded-for": "192.0.2.50" })).status;
      const sameDirect = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        sameDirect.push((await signInResponse(uniqueEmail("direct"), "wrong password", "198.51.100.9", { "x-forwarded-for": `192.0.2.${60 + attempt}` })).status);
      }
      expect([direct, ...sameDirect]).toEqual([401, 401, 401, 401, 401, 429]);
    });
  });
});

describe("sign-in limit per account", () => {
  it("after five failed attempts the account waits, whatever address the guesses come from; the answer says how long", async () => {
    const user = await signUp(uniqueEmail("target"));
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) statuses.push((await signInResponse(user.email, `guess ${attempt}`, `192.0.2.${attempt + 1}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // Even the right password waits.
    const locked = await signInResponse(user.email.toUpperCase(), user.password, "192.0.2.99");
    expect(locked.status).toBe(429);
    const wait = Number(locked.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    expect(await messageOf(locked)).toMatch(/Too many sign-in attempts for this account\. Try again in \d+ seconds/);
  });

  it("the wait doubles with each further failure, up to 15 minutes; a successful sign-in starts the count again", async () => {
    const user = await signUp(uniqueEmail("backoff"));
    const key = `signin:${user.email}`;
    const pastTheWait = () => h.db.rateBucket.updateMany({ where: { key }, data: { windowStart: new Date(Date.now() - 60 * 60 * 1000) } });
    const refusedFor = async () => {
      const refused = await signInResponse(user.email, "wrong", "192.0.2.1");
      expect(refused.status).toBe(429);
      return Number(refused.headers.get("retry-after"));
    };
    for (let attempt = 0; attempt < 5; attempt++) expect((await signInResponse(user.email, "wrong", "192.0.2.1")).status).toBe(401);
    const waits = [await refusedFor()];
    // Each time the wait is over (moved into the past here), one more wrong guess, then the next wait.
    for (let round = 0; round < 6; round++) {
      await pastTheWait();
      expect((await signInResponse(user.email, "wrong", "192.0.2.1")).status).toBe(401);
      waits.push(await refusedFor());
    }
    const expected = [30, 60, 120, 240, 480, 900, 900];
    waits.forEach((wait, index) => {
      expect(wait).toBeGreaterThan(expected[index]! - 5);
      expect(wait).toBeLessThanOrEqual(expected[index]!);
    });
    // A success clears the count: five more wrong guesses are answered 401, not 429.
    await pastTheWait();
    expect((await signInResponse(user.email, user.password, "192.0.2.1")).status).toBe(200);
    for (let attempt = 0; attempt < 5; attempt++) expect((await signInResponse(user.email, "wrong", "192.0.2.1")).status).toBe(401);
  });

  it("guesses at an unknown email are limited the same way (the answer does not tell accounts apart)", async () => {
    const nobody = uniqueEmail("nobody");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) statuses.push((await signInResponse(nobody, "wrong", `192.0.2.${attempt + 1}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe("bodies and fields of /api/auth", () => {
  it("a body over 64 KB is refused with 413 before anything is read or stored", async () => {
    const users = await h.db.user.count();
    const big = JSON.stringify({ email: uniqueEmail("big"), password: TEST_PASSWORD, name: "x".repeat(200_000) });
    const response = await authRoute.POST(authPost("/sign-up/email", big, { "content-length": String(big.length) }));
    expect(response.status).toBe(413);
    expect(await messageOf(response)).toMatch(/larger than 65,536 bytes/);
    expect(await h.db.user.count()).toBe(users);
  });

  it("a streamed body without a length is cut off at the limit, not read to its end", async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        // 200 MB if read to the end.
        if (pulled > 200 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await authRoute.POST(authPost("/sign-in/email", endless));
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(1024 * 1024);
  });

  it("every stored field is bounded, with a 400 naming the field and its limit; nothing is stored", async () => {
    const users = await h.db.user.count();
    const signUpWith = (body: Record<string, string>) =>
      authRoute.POST(authPost("/sign-up/email", JSON.stringify({ email: uniqueEmail("bounds"), password: TEST_PASSWORD, name: "ok", ...body })));
    const cases: [Record<string, string>, RegExp][] = [
      [{ name: "n".repeat(101) }, /The name is too long: at most 100 characters/],
      [{ email: `${"e".repeat(250)}@example.com` }, /The email address is too long: at most 254 characters/],
      [{ password: "p".repeat(129) }, /The password is too long: use at most 128 characters/],
      [{ image: `https://example.com/${"i".repeat(3000)}` }, /The image is too long: at most 2048 characters/],
    ];
    for (const [body, message] of cases) {
      const response = await signUpWith(body);
      expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(await messageOf(response)).toMatch(message);
    }
    expect(await h.db.user.count()).toBe(users);
    // A signed-in user cannot rename themselves past the bound either.
    const user = await signUp(uniqueEmail("renamer"));
    const rename = await authRoute.POST(authPost("/update-user", JSON.stringify({ name: "n".repeat(30_000) }), { cookie: user.cookie }));
    expect(rename.status).toBe(400);
    expect((await h.db.user.findUniqueOrThrow({ where: { id: user.id } })).name).toBe(user.name);
  });

  it("a token name over 64 characters is refused clearly", async () => {
    const user = await signUp(uniqueEmail("namer"));
    const result = await asHeaders({ cookie: user.cookie }, () => actions.createTokenAction({ name: "t".repeat(65), expiresInDays: null }));
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(JSON.stringify(result)).toMatch(/at most 64 characters/);
  });
});

describe("API tokens and sessions", () => {
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    user = await signUp(uniqueEmail("holder"));
  });

  it("a leaked token can neither make nor revoke tokens: 403, and the owner's other tokens keep working", async () => {
    const leaked = await bearer(user);
    const other = await bearer(user);
    const otherId = (await h.db.apikey.findFirstOrThrow({ where: { referenceId: user.id }, orderBy: { createdAt: "desc" } })).id;
    const made = await asHeaders(leaked, () => actions.createTokenAction("attacker's"));
    const revoked = await asHeaders(leaked, () => actions.revokeTokenAction(otherId));
    const all = await asHeaders(leaked, () => actions.revokeAllTokensAction());
    for (const result of [made, revoked, all]) {
      expect(result).toMatchObject({ ok: false, error: { code: "forbidden" } });
      expect(result.ok ? "" : result.error.message).toMatch(/only be managed from a signed-in browser/);
    }
    // Nor through the library's own token endpoints, which know only sessions.
    const direct = await authRoute.POST(authPost("/api-key/create", JSON.stringify({ name: "attacker's" }), leaked));
    expect(direct.status).toBe(401);
    expect(await h.db.apikey.count({ where: { name: "attacker's" } })).toBe(0);
    expect(await listConversations(other)).toBe(200);
  });

  it("the token list tells tokens apart: the name, the first characters of each token, and the expiry chosen", async () => {
    const session = { cookie: user.cookie };
    const first = await asHeaders(session, () => actions.createTokenAction({ name: "backup", expiresInDays: 30 }));
    const second = await asHeaders(session, () => actions.createTokenAction({ name: "backup", expiresInDays: null }));
    if (!first.ok || !second.ok) throw new Error("token creation failed");
    expect(first.data.start).toBe(first.data.token.slice(0, "strata_".length + 6));
    expect(first.data.start).not.toBe(second.data.start);
    const days = (Date.parse(first.data.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(second.data.expiresAt).toBeNull();
    const views: TokenView[] = await ops.listTokens(user);
    expect(views.map((token) => token.start)).toEqual(expect.arrayContaining([first.data.start, second.data.start]));
    // Any other expiry is refused (the type forbids it; a hand-made request does not).
    const odd = await asHeaders(session, () => actions.createTokenAction({ name: "odd", expiresInDays: 7 as 30 }));
    expect(odd).toMatchObject({ ok: false, error: { code: "invalid_input" } });
  });

  it("an expired token is refused with 401", async () => {
    const created = await asHeaders({ cookie: user.cookie }, () => actions.createTokenAction({ name: "short-lived", expiresInDays: 30 }));
    if (!created.ok) throw new Error("token creation failed");
    const authorization = { authorization: `Bearer ${created.data.token}` };
    expect(await listConversations(authorization)).toBe(200);
    await h.db.apikey.update({ where: { id: created.data.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await conversationsRoute.GET(new Request(`${ORIGIN}/api/conversations`, { headers: authorization }));
    expect(response.status).toBe(401);
    expect(JSON.stringify(await response.json())).toMatch(/unknown, revoked or expired/);
  });

  it("changing the password ends every other session (even when the client asks to keep them); revoking tokens is offered", async () => {
    const person = await signUp(uniqueEmail("changer"));
    const laptop = await signIn(person.email, person.password);
    const token = await bearer(person);
    const newPassword = "a completely new passphrase";
    const response = await authRoute.POST(
      authPost("/change-password", JSON.stringify({ currentPassword: person.password, newPassword, revokeOtherSessions: false }), { cookie: person.cookie }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await listConversations({ cookie: laptop })).toBe(401);
    // The session that changed it goes on, under its new cookie.
    const renewed = response.headers.getSetCookie().map((line) => line.split(";")[0]!).find((pair) => pair.includes("session_token="));
    expect(await listConversations({ cookie: renewed! })).toBe(200);
    // Tokens stay unless the user asks, from the session, to revoke them.
    expect(await listConversations(token)).toBe(200);
    const revoked = await asHeaders({ cookie: renewed! }, () => actions.revokeAllTokensAction());
    expect(revoked).toMatchObject({ ok: true, data: 1 });
    expect(await listConversations(token)).toBe(401);
    expect((await signInResponse(person.email, newPassword)).status).toBe(200);
  });

  it("the sessions list shows each session without its token, marks this one, and ends another", async () => {
    const person = await signUp(uniqueEmail("devices"));
    const phone = await signIn(person.email, person.password);
    const sessions: SessionView[] = await ops.listSessions(person, new Headers({ cookie: person.cookie }));
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    const stored = await h.db.session.findMany({ where: { userId: person.id } });
    for (const { token } of stored) expect(JSON.stringify(sessions)).not.toContain(token);
    const other = sessions.find((session) => !session.current)!;
    expect(await asHeaders({ cookie: person.cookie }, () => actions.revokeSessionAction(other.id))).toMatchObject({ ok: true });
    expect(await listConversations({ cookie: phone })).toBe(401);
    expect(await listConversations({ cookie: person.cookie })).toBe(200);
    // Another user's session id is not found.
    const stranger = await signUp(uniqueEmail("stranger"));
    const theirs = await h.db.session.findFirstOrThrow({ where: { userId: stranger.id } });
    expect(await asHeaders({ cookie: person.cookie }, () => actions.revokeSessionAction(theirs.id))).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});

describe("passwords", () => {
  const signUpWith = (password: string) =>
    authRoute.POST(authPost("/sign-up/email", JSON.stringify({ email: uniqueEmail("pw"), password, name: "pw" })));

  it("'password', an 11-character password and a common one of 12 are refused with a clear message; a strong one is accepted", async () => {
    const refused: [string, RegExp][] = [
      ["password", /too short: use at least 12 characters/],
      ["elevenchars", /too short: use at least 12 characters/],
      ["password1234", /too easy to guess \(it is close to a common password\)/],
      ["qwertyuiop12", /too easy to guess/],
    ];
    for (const [password, message] of refused) {
      const response = await signUpWith(password);
      expect(response.status, password).toBe(400);
      expect(await messageOf(response)).toMatch(message);
    }
    expect((await signUpWith("a strong passphrase 2026")).status).toBe(200);
  });

  it("a new password goes by the same rule", async () => {
    const person = await signUp(uniqueEmail("weak-change"));
    const response = await authRoute.POST(
      authPost("/change-password", JSON.stringify({ currentPassword: person.password, newPassword: "password1234" }), { cookie: person.cookie }),
    );
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toMatch(/too easy to guess/);
  });

  it("an account made when 8 characters were enough (or 256 allowed) keeps signing in", async () => {
    const veteran = await signUp(uniqueEmail("veteran"));
    // Its stored password, as the library hashed it then.
    const { password } = await (await getAuth()).$context;
    await h.db.account.updateMany({ where: { userId: veteran.id, providerId: "credential" }, data: { password: await password.hash("password") } });
    expect((await signInResponse(veteran.email, "password")).status).toBe(200);
    // So does one whose password is longer than new ones may be (up to the 256 allowed then).
    const long = "a long password from a password manager ".repeat(6);
    await h.db.account.updateMany({ where: { userId: veteran.id, providerId: "credential" }, data: { password: await password.hash(long) } });
    expect((await signInResponse(veteran.email, long)).status).toBe(200);
  });
});

describe("sign-in counts", () => {
  it("the counts of emails nobody has tried for a day are pruned; recent ones stay", async () => {
    const { pruneSignInAttempts } = await import("../../lib/db/signin-attempts");
    const { SIGNIN_BACKOFF } = await import("../../lib/auth/signin-limit");
    const [old, recent] = [uniqueEmail("old"), uniqueEmail("recent")];
    for (const email of [old, recent]) await signInResponse(email, "wrong");
    await h.db.rateBucket.update({ where: { key: `signin:${old}` }, data: { windowStart: new Date(Date.now() - 25 * 60 * 60 * 1000) } });
    await pruneSignInAttempts(h.db, SIGNIN_BACKOFF.forgetAfterSeconds);
    expect(await h.db.rateBucket.count({ where: { key: { in: [`signin:${old}`, `signin:${recent}`] } } })).toBe(1);
    expect(await h.db.rateBucket.findUnique({ where: { key: `signin:${recent}` } })).not.toBeNull();
  });
});
