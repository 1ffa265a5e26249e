// Account settings from the environment, read when used (tests change them per case).
import { z } from "zod";

const count = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const optional = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const schema = z.object({
  /** "closed": nobody signs up, not even the first account (use `npm run strata -- user:create`). */
  STRATA_SIGNUPS: z.enum(["open", "closed"]).default("open"),
  /** Sign-in (and sign-up) attempts per client address per minute. */
  STRATA_SIGNIN_RATE_LIMIT: count(5),
  /** Messages one user may send per minute (0: no limit). */
  STRATA_MESSAGE_RATE_LIMIT: count(30),
  /** Proxies (CIDRs) whose X-Forwarded-For is trusted to name the client for rate limits. */
  STRATA_TRUSTED_PROXIES: optional,
  BETTER_AUTH_SECRET: optional,
  GITHUB_CLIENT_ID: optional,
  GITHUB_CLIENT_SECRET: optional,
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
});

export type AuthConfig = z.infer<typeof schema>;

export function authConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid account configuration: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  return parsed.data;
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
