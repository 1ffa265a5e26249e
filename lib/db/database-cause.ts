// A database failure in words a user can act on. A leaf module (no imports) so that
// lib/errors.ts can use it without loading the database client, which imports errors.ts.
type PgLikeError = { code?: unknown; message?: unknown; cause?: unknown };

/** The cause of a database failure in words a user can act on (no stack, no credentials); null when the error is not a recognized connection failure. */
export function databaseCause(error: unknown): string | null {
  const seen = new Set<unknown>();
  let current: unknown = error;
  const codes: string[] = [];
  const messages: string[] = [];
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const { code, message, cause } = current as PgLikeError;
    if (typeof code === "string") codes.push(code);
    if (typeof message === "string") messages.push(message);
    current = cause;
  }
  const text = messages.join(" ");
  if (codes.includes("3D000") || /database .* does not exist/i.test(text)) return "The database Strata is configured to use does not exist.";
  if (codes.includes("ECONNREFUSED") || /ECONNREFUSED|connect(ion)? refused/i.test(text)) return "The database server refuses connections: it is not running or not reachable.";
  if (codes.includes("28P01") || codes.includes("28000") || /password authentication|authentication failed/i.test(text)) return "The database refused Strata's credentials.";
  if (codes.includes("ETIMEDOUT") || /timeout|timed out/i.test(text)) return "The database server does not answer (the connection timed out).";
  if (codes.includes("57P03") || /starting up|shutting down/i.test(text)) return "The database server is starting up or shutting down.";
  if (/Can't reach database|connection terminated|Connection ended|server closed the connection/i.test(text)) return "The connection to the database server was lost.";
  return null;
}

/** databaseCause, with a plain fallback for anything unrecognized. */
export function describeDatabaseError(error: unknown): string {
  return databaseCause(error) ?? "The database cannot be reached.";
}
