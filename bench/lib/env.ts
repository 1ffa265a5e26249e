// Imported FIRST by every benchmark: points the app's modules at a dedicated
// benchmark database and quiets the logger before anything from lib/ loads.
// Each benchmark uses its own database (strata_bench_<name>) so they can run alone
// or in sequence without seeing each other's rows.
const name = (process.argv[1] ?? "bench").replace(/^.*\//, "").replace(/\.ts$/, "").replace(/[^a-z0-9]+/gi, "_");

export const BENCH_ADMIN_URL = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function benchDatabaseUrl(suffix = name): string {
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/strata_bench_${suffix.toLowerCase()}`;
  return url.toString();
}

process.env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "silent";
process.env.DATABASE_URL = benchDatabaseUrl();
// The test server is started by each benchmark; placeholders until then.
process.env.OPENAI_API_KEY = "test";
process.env.OPENAI_BASE_URL ??= "http://127.0.0.1:9/v1";
process.env.STRATA_DEFAULT_MODEL = "gpt-4o-mini";
// A benchmark sends far more than a person would; the per-user send limit is not what it measures.
process.env.STRATA_MESSAGE_RATE_LIMIT = "0";
