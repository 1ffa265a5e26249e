// Once before the fault files: a fresh, migrated, empty database.
import { resetDatabase } from "../../../lib/db/admin";
import { FAULTS_DATABASE_URL } from "./database";

export default async function setup(): Promise<void> {
  await resetDatabase(FAULTS_DATABASE_URL);
}
