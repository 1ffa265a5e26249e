// Which database the integration suite runs on: the real PostgreSQL server (default)
// or the embedded PGlite (STRATA_TEST_DB=embedded, in memory).
export { ensureDatabase, dropDatabase } from "../../../lib/db/admin";

export const TEST_DB = process.env.STRATA_TEST_DB === "embedded" ? "embedded" : "postgres";
