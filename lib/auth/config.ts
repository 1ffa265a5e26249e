// Account settings: the accounts' part of the server configuration (lib/config.ts).
import { config, type Config } from "../config";

export type AuthConfig = Pick<
  Config,
  | "STRATA_SIGNUPS"
  | "STRATA_SIGNIN_RATE_LIMIT"
  | "STRATA_MESSAGE_RATE_LIMIT"
  | "STRATA_TRUSTED_PROXIES"
  | "BETTER_AUTH_SECRET"
  | "GITHUB_CLIENT_ID"
  | "GITHUB_CLIENT_SECRET"
  | "GOOGLE_CLIENT_ID"
  | "GOOGLE_CLIENT_SECRET"
>;

export function authConfig(env: Record<string, string | undefined> = process.env): AuthConfig {
  return config(env);
}

/** OAuth providers whose id and secret are both set; email + password always works. */
export function socialProviders(config: AuthConfig) {
  return {
    ...(config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET
      ? { github: { clientId: config.GITHUB_CLIENT_ID, clientSecret: config.GITHUB_CLIENT_SECRET } }
      : {}),
    ...(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? { google: { clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET } }
      : {}),
  };
}
