// The fault suite's own database, so it never disturbs the integration suite's.
export { ensureDatabase } from "../../../lib/db/admin";

export const FAULTS_DATABASE_URL = process.env.FAULTS_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/strata_faults";
