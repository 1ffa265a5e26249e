// Whether a visitor may sign up now. Apart from the library's hooks (signup-policy.ts) so
// that reading it does not load the auth library.
import type { Db } from "../db/client";
import { hasAccounts, readSignupsOpen } from "../db/instance";
import type { AuthConfig } from "./config";

/** Always for the first account, unless closed by the environment; then the admin's switch. */
export async function signupsAllowed(db: Db, config: AuthConfig): Promise<boolean> {
  if (config.STRATA_SIGNUPS === "closed") return false;
  if (!(await hasAccounts(db))) return true;
  return readSignupsOpen(db);
}
