// better-auth, configured once per process: email + password (optional OAuth), sessions
// in PostgreSQL through the Prisma adapter, rate limits stored there too, and personal
// API tokens. Built on first use because it needs the database (and the auth secret
// stored in it) first.
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { apiKey } from "@better-auth/api-key";
import { admin } from "better-auth/plugins/admin";
import { getDb, type Db } from "../db/client";
import { storedAuthSecret } from "../db/instance";
import { logger } from "../log/logger";
import { authConfig, socialProviders, type AuthConfig } from "./config";
import { accountHooks } from "./signup-policy";
import { afterHook, beforeHook } from "./hooks";
import { CLIENT_CHAIN_HEADER } from "./client-address";
import { MIN_PASSWORD_LENGTH } from "./password-policy";
import { MAX_CHECKED_PASSWORD_LENGTH } from "./input-policy";
import { ACCOUNT_DISABLED_MESSAGE } from "./account-disabled";

/** Every personal API token starts with this, so secret scanners can recognise one. */
export const TOKEN_PREFIX = "strata_";
export const TOKEN_LENGTH = 48;
/** Stored and shown for each token: the prefix and its first random characters, enough to tell tokens apart. */
export const TOKEN_SHOWN_LENGTH = TOKEN_PREFIX.length + 6;

const ADMIN_PLUGIN_PATHS = [
  "set-role", "get-user", "create-user", "update-user", "list-users", "list-user-sessions", "unban-user", "ban-user",
  "impersonate-user", "stop-impersonating", "revoke-user-session", "revoke-user-sessions", "remove-user",
  "set-user-password", "has-permission",
].map((name) => `/admin/${name}`);

const authLogger = logger.child({ module: "auth" });

/** The library logs through the app's logger, at the level LOG_LEVEL asks for (at most "warn" by default). */
function libraryLogLevel(): "debug" | "info" | "warn" | "error" {
  const level = logger.level;
  if (level === "trace" || level === "debug") return "debug";
  if (level === "info") return "warn";
  return level === "warn" ? "warn" : "error";
}

/**
 * The origin the browser is on, as the request says (Next.js fills in the forwarded
 * headers). Without BETTER_AUTH_URL Strata answers on whatever address it is reached at
 * (localhost, 127.0.0.1, a LAN name); a cross-site request still carries its own Origin,
 * which will not match.
 */
function sameOrigin(request?: Request): string[] {
  const host = request?.headers.get("x-forwarded-host") ?? request?.headers.get("host");
  if (!request || !host) return [];
  const protocol = request.headers.get("x-forwarded-proto") ?? new URL(request.url).protocol.replace(":", "");
  return [`${protocol}://${host}`];
}

function createAuth(db: Db, secret: string, config: AuthConfig) {
  const trustedProxies = config.STRATA_TRUSTED_PROXIES?.split(",").map((cidr) => cidr.trim()).filter(Boolean);
  const signInLimit = { window: 60, max: config.STRATA_SIGNIN_RATE_LIMIT };
  return betterAuth({
    appName: "Strata",
    secret,
    basePath: "/api/auth",
    trustedOrigins: sameOrigin,
    database: prismaAdapter(db, { provider: "postgresql", transaction: true }),
    // The minimum applies to new passwords only (sign-in checks just the maximum), so older
    // accounts with shorter passwords keep signing in; the maximum stays what it was for
    // the same reason, and new passwords are held to 128 by the rest of the rule (a hook).
    emailAndPassword: {
      enabled: true, minPasswordLength: MIN_PASSWORD_LENGTH, maxPasswordLength: MAX_CHECKED_PASSWORD_LENGTH, autoSignIn: true,
      // An admin's reset link (lib/auth/password-reset.ts) signs the account out everywhere once used.
      revokeSessionsOnPasswordReset: true,
    },
    socialProviders: socialProviders(config),
    // Every request reads the session row: signing out or deleting a session ends it at once.
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24, cookieCache: { enabled: false } },
    user: { additionalFields: { role: { type: "string", required: false, input: false, defaultValue: "user" } } },
    rateLimit: {
      // The library enables it only in production builds; brute force is not a production-only concern.
      enabled: config.STRATA_SIGNIN_RATE_LIMIT > 0,
      storage: "database",
      window: 60,
      max: 120,
      customRules: { "/sign-in/email": signInLimit, "/sign-up/email": signInLimit },
    },
    advanced: {
      // The client address only as the auth route resolved it (lib/auth/client-address.ts),
      // never a header the client may have set.
      ipAddress: { ipAddressHeaders: [CLIENT_CHAIN_HEADER], ...(trustedProxies?.length ? { trustedProxies } : {}) },
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      // A long-running server: work the library defers (deleting expired API tokens)
      // simply runs after the response; a failure is logged, never the request's.
      backgroundTasks: {
        handler: (task) => void task.catch((error: unknown) => authLogger.warn({ err: String(error) }, "deferred auth update failed")),
      },
    },
    databaseHooks: accountHooks(db),
    // The admin plugin's endpoints are not served: Strata's own operations (lib/chat/
    // admin-user-ops.ts) do that work with its guards (the last admin), and impersonation is off.
    disabledPaths: ADMIN_PLUGIN_PATHS,
    hooks: { before: beforeHook(db, config), after: afterHook(db) },
    plugins: [
      // For its columns and its one rule: a disabled ("banned") user gets no new session,
      // whichever way they sign in.
      admin({ bannedUserMessage: ACCOUNT_DISABLED_MESSAGE }),
      apiKey({
        defaultPrefix: TOKEN_PREFIX,
        defaultKeyLength: TOKEN_LENGTH,
        requireName: true,
        maximumNameLength: 64,
        startingCharactersConfig: { shouldStore: true, charactersLength: TOKEN_SHOWN_LENGTH },
        // Never by default; the form offers 30 or 90 days.
        keyExpiration: { defaultExpiresIn: null, minExpiresIn: 1, maxExpiresIn: 365 },
        // Sends are limited per user (lib/chat/send-limit.ts); the plugin's own default is 10 requests a day.
        rateLimit: { enabled: false },
        // What the library defers runs after the response. Requests check tokens in
        // lib/auth/tokens.ts (one read, no write); the library verifies only tokens
        // with a usage quota, and its writes for those are not deferred.
        deferUpdates: true,
      }),
    ],
    telemetry: { enabled: false },
    logger: {
      level: libraryLogLevel(),
      // Only the message and error messages: arguments may carry request data.
      log: (level, message, ...args) =>
        authLogger[level](
          { errors: args.filter((arg): arg is Error => arg instanceof Error).map((error) => error.message) },
          message,
        ),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

// Kept on globalThis like the database client, and rebuilt when that client changes
// (closeDb in tests and scripts), since the instance holds it.
const globalForAuth = globalThis as unknown as { strataAuth?: { db: Db; auth: Promise<Auth> } | undefined };

export async function getAuth(): Promise<Auth> {
  const db = await getDb();
  const cached = globalForAuth.strataAuth;
  if (cached?.db === db) return cached.auth;
  const config = authConfig();
  const auth = (async () => createAuth(db, config.BETTER_AUTH_SECRET ?? (await storedAuthSecret(db)), config))();
  globalForAuth.strataAuth = { db, auth };
  auth.catch(() => {
    if (globalForAuth.strataAuth?.auth === auth) globalForAuth.strataAuth = undefined;
  });
  return auth;
}

/** Forgets the instance, so the next use reads the account configuration again (tests). */
export function resetAuth(): void {
  globalForAuth.strataAuth = undefined;
}
