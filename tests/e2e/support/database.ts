// The e2e database: created when missing, migrated and emptied before a run.
import { resetDatabase } from "../../../lib/db/admin";

export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/strata_e2e";

export function prepareDatabase(url = E2E_DATABASE_URL): Promise<void> {
  return resetDatabase(url);
}
