// A user's account: personal API tokens and signed-in sessions.
import type { SessionView, TokenView } from "../views";
import type { CreatedToken } from "../auth/tokens";
import { newTokenSchema } from "../auth/token-input";
import { recordIdSchema } from "./inputs";
import { type Actor, parse } from "./actor";

// Loaded when used: processes that only chat (the crash test's children, benchmarks)
// need not load the auth library.
const tokenModule = () => import("../auth/tokens");

export async function listTokens(actor: Actor): Promise<TokenView[]> {
  return (await tokenModule()).tokensOf(actor.id);
}

/** A new personal API token; its value is in the result this once. */
export async function createToken(actor: Actor, input: unknown): Promise<CreatedToken> {
  const tokens = await tokenModule();
  const { name, expiresInDays } = parse(newTokenSchema, input);
  return tokens.createToken(actor.id, name, expiresInDays);
}

export async function revokeToken(actor: Actor, tokenId: unknown): Promise<void> {
  await (await tokenModule()).revoke(actor.id, parse(recordIdSchema, tokenId));
}

export async function revokeAllTokens(actor: Actor): Promise<number> {
  return (await tokenModule()).revokeAll(actor.id);
}

const sessionModule = () => import("../auth/sessions");

/** The actor's sessions; `requestHeaders` tell which one is asking. */
export async function listSessions(actor: Actor, requestHeaders: Headers): Promise<SessionView[]> {
  return (await sessionModule()).sessionsOf(actor.id, requestHeaders);
}

export async function revokeSession(actor: Actor, sessionId: unknown): Promise<void> {
  await (await sessionModule()).endSession(actor.id, parse(recordIdSchema, sessionId));
}
