// The server's configuration: every environment variable Strata reads, in one zod
// schema. `config()` parses process.env once and keeps the result; it parses again
// only when one of these variables changed since (tests switch the model endpoint
// between files). `instrumentation.ts` calls it when the server starts, so an invalid
// value stops the start with a message naming the variable and what it accepts,
// instead of becoming NaN somewhere (no body limit, every message refused, …).
import { z } from "zod";
import { invalidProxyEntries } from "./http/proxy-list";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** A whole number in [min, max], given as text; the message says the range. */
function wholeNumber(min: number, max: number) {
  const range = `a whole number from ${min.toLocaleString("en-US")} to ${max.toLocaleString("en-US")}`;
  return z
    .string()
    .trim()
    .regex(/^-?\d+$/, { message: `must be ${range}` })
    .transform(Number)
    .pipe(z.number().int().min(min, { message: `must be ${range}` }).max(max, { message: `must be ${range}` }));
}

const integer = (min: number, max: number, fallback: number) => wholeNumber(min, max).default(fallback);

const text = z.string().trim().optional();

function url(protocols: string[]) {
  const accepted = protocols.map((protocol) => `${protocol}//`).join(" or ");
  return z
      .string()
      .trim()
      .refine(
        (value) => {
          try {
            return protocols.includes(new URL(value).protocol);
          } catch {
            return false;
          }
        },
        { message: `must be a URL starting with ${accepted}` },
      )
      .optional();
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.enum(values, { message: `must be one of: ${values.join(", ")}` }).default(fallback);
}

export const configSchema = z.object({
  // Database
  DATABASE_URL: url(["postgres:", "postgresql:"]),
  STRATA_DATA_DIR: text,
  STRATA_AUTO_MIGRATE: oneOf(["0", "1"], "1"),
  /** Connections one instance keeps to PostgreSQL; turns wait for one when all are busy. */
  STRATA_DB_POOL_SIZE: integer(1, 500, 10),
  /**
   * Server processes `npm start` runs on one port (node:cluster), e.g. one per core. Above
   * 1 it needs DATABASE_URL: the embedded database is one process by construction.
   */
  STRATA_PROCESSES: integer(1, 64, 1),
  // Model
  OPENAI_API_KEY: text,
  OPENAI_BASE_URL: url(["http:", "https:"]),
  STRATA_DEFAULT_MODEL: text,
  STRATA_MODEL_TIMEOUT_MS: integer(1_000, 3_600_000, 120_000),
  STRATA_MODEL_MAX_RETRIES: wholeNumber(0, 10).optional(),
  // Tool servers
  /** Longest a tool server's call may run before it becomes a failed result. */
  STRATA_TOOL_TIMEOUT_MS: integer(1_000, 3_600_000, 60_000),
  // Limits
  STRATA_MAX_MESSAGE_CHARS: integer(1, 10_000_000, 100_000),
  STRATA_MAX_BODY_BYTES: integer(1_024, 100 * 1024 * 1024, 1_048_576),
  /** Largest conversation export POST /api/conversations/import accepts (exports carry whole histories). */
  STRATA_MAX_IMPORT_BYTES: integer(1_024, 1024 * 1024 * 1024, 50 * 1024 * 1024),
  /** Largest file a message may carry (POST /api/conversations/:id/attachments refuses more with 413). */
  STRATA_ATTACHMENT_MAX_BYTES: integer(1, 1024 * 1024 * 1024, 10 * 1024 * 1024),
  /** How long a turn's lease on its conversation lasts without renewal (one turn at a time). */
  STRATA_TURN_LEASE_MS: integer(1_000, 600_000, 30_000),
  /** How long a tool call that requires approval waits for the user's answer before it is denied. */
  STRATA_TOOL_APPROVAL_TIMEOUT_MS: integer(5_000, 1_800_000, 600_000),
  // Accounts
  STRATA_SIGNUPS: oneOf(["open", "closed"], "open"),
  STRATA_SIGNIN_RATE_LIMIT: integer(0, 1_000_000, 5),
  STRATA_MESSAGE_RATE_LIMIT: integer(0, 1_000_000, 30),
  STRATA_TRUSTED_PROXIES: text.refine((value) => !value || invalidProxyEntries(value).length === 0, {
    message: "must be a comma-separated list of IP addresses or CIDRs (10.0.0.0/8, ::1)",
  }),
  BETTER_AUTH_SECRET: text,
  BETTER_AUTH_URL: url(["http:", "https:"]),
  GITHUB_CLIENT_ID: text,
  GITHUB_CLIENT_SECRET: text,
  GOOGLE_CLIENT_ID: text,
  GOOGLE_CLIENT_SECRET: text,
  // Operations
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of: ${LOG_LEVELS.join(", ")}` }).optional(),
  STRATA_LOG_TO_STDERR: oneOf(["0", "1"], "0"),
  /** Bearer token that /api/metrics requires; unset: the metrics are public. */
  STRATA_METRICS_TOKEN: text,
  /** How long a SIGTERM waits for running turns to save their partial replies. */
  STRATA_SHUTDOWN_GRACE_MS: integer(0, 600_000, 10_000),
  /** "1": API routes return a Server-Timing header (lib/log/timing.ts; bench/turn-overhead.ts). */
  STRATA_SERVER_TIMING: oneOf(["0", "1"], "0"),
  /** "0" runs background work in-process even on PostgreSQL (no queue). */
  STRATA_QUEUE: oneOf(["0", "1"], "1"),
  /** "0": requests carry no prompt_cache_key (for a server that rejects parameters it does not know). */
  STRATA_PROMPT_CACHE_KEY: oneOf(["0", "1"], "1"),
  /** Node's own switch: "1" sends fetch (and so model calls) through HTTP_PROXY / HTTPS_PROXY, minus NO_PROXY. */
  NODE_USE_ENV_PROXY: oneOf(["0", "1"], "0"),
});

export type Config = z.infer<typeof configSchema>;
export const CONFIG_VARIABLES = Object.keys(configSchema.shape) as (keyof Config)[];

/** Thrown for an invalid environment; its message lists every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

/** Parses `env` (pure; no caching). */
export function parseConfig(env: Env): Config {
  // An empty or blank variable counts as unset (a `.env` line like `FOO=`).
  const picked = Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, env[name]?.trim() ? env[name] : undefined]));
  const parsed = configSchema.safeParse(picked);
  if (parsed.success && parsed.data.STRATA_PROCESSES > 1 && !parsed.data.DATABASE_URL) {
    throw new ConfigError([
      `STRATA_PROCESSES above 1 needs DATABASE_URL: the embedded database serves one process (got ${JSON.stringify(env.STRATA_PROCESSES)} without DATABASE_URL)`,
    ]);
  }
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "?");
      const value = env[name];
      return `${name} ${issue.message}${value === undefined ? "" : ` (got ${JSON.stringify(value)})`}`;
    }),
  );
}

let cached: { key: string; config: Config } | undefined;

/** The configuration of this process (parsed once; again only when a variable changed). */
export function config(env: Env = process.env): Config {
  const key = CONFIG_VARIABLES.map((name) => env[name] ?? "\u0000").join("\u0001");
  if (env === process.env && cached?.key === key) return cached.config;
  const parsed = parseConfig(env);
  if (env === process.env) cached = { key, config: parsed };
  return parsed;
}
