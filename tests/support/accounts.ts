// How every suite acts as a user (README, "Tests"). Operations take the user as their
// first argument; route handlers and the browser authenticate like any client: with a
// personal API token (`bearer`) or a session cookie from the auth library
// (`signUp` / `signIn`). Users made here go through better-auth like real ones.
import { randomUUID } from "node:crypto";
import * as authRoute from "../../app/api/auth/[...all]/route";
import { getAuth, resetAuth } from "../../lib/auth/auth";
import { PEER_HEADER, stampPeerAddresses } from "../../lib/auth/client-address";
import { createToken } from "../../lib/auth/tokens";
import { getDb } from "../../lib/db/client";
import { findUserById, type UserRecord } from "../../lib/db/users";

export type TestUser = UserRecord & { password: string };

export const TEST_PASSWORD = "correct horse battery staple";

/** A unique address, so suites sharing a database never collide. */
export function uniqueEmail(label = "user"): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

const AUTH = "http://localhost/api/auth";

/** What a browser would send; the library checks the origin of cookie-bearing requests. */
function authRequest(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${AUTH}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost", ...headers },
    body: JSON.stringify(body),
  });
}

/** The session cookie (name=value) a sign-up or sign-in response sets. */
function sessionCookie(response: Response): string {
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .find((pair) => pair.includes("session_token="));
  if (!cookie) throw new Error(`No session cookie in a ${response.status} response.`);
  return cookie;
}

/** Signs up through the library's HTTP endpoint, exactly as the sign-up form does. */
export async function signUp(email = uniqueEmail(), password = TEST_PASSWORD): Promise<TestUser & { cookie: string }> {
  const response = await (await getAuth()).handler(authRequest("/sign-up/email", { email, password, name: email.split("@")[0] }));
  if (!response.ok) throw new Error(`Sign-up failed (${response.status}): ${await response.text()}`);
  const { user } = (await response.json()) as { user: { id: string } };
  const record = await findUserById(await getDb(), user.id);
  return { ...record!, password, cookie: sessionCookie(response) };
}

// As under a running server, which stamps each request with its socket's address (the
// requests here never pass a socket, so the tests set that header themselves).
stampPeerAddresses();

/**
 * The raw sign-in response through the auth route (tests of wrong passwords and rate
 * limits read its status), coming from `clientAddress` as the socket's peer, with
 * any extra headers (X-Forwarded-For) a client or proxy would add.
 */
export async function signInResponse(email: string, password: string, clientAddress = "203.0.113.7", headers: Record<string, string> = {}): Promise<Response> {
  return authRoute.POST(authRequest("/sign-in/email", { email, password }, { [PEER_HEADER]: clientAddress, ...headers }));
}

export async function signIn(email: string, password: string): Promise<string> {
  const response = await signInResponse(email, password);
  if (!response.ok) throw new Error(`Sign-in failed (${response.status}): ${await response.text()}`);
  return sessionCookie(response);
}

/** Ends the session server-side, as the sign-out button does. */
export async function signOut(cookie: string): Promise<Response> {
  return (await getAuth()).handler(authRequest("/sign-out", {}, { cookie }));
}

/** `Authorization` header of a fresh personal API token of `user`. */
export async function bearer(user: { id: string }): Promise<{ authorization: string }> {
  const { token } = await createToken(user.id, "tests");
  return { authorization: `Bearer ${token}` };
}

/** Runs `work` with environment overrides and a fresh auth instance (it reads its configuration once). */
export async function withEnv<T>(values: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  resetAuth();
  try {
    return await work();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetAuth();
  }
}
