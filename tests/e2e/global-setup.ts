import { prepareDatabase } from "./support/database";

/** Creates the e2e database if missing and empties it (the app may already be running). */
export default async function globalSetup(): Promise<void> {
  await prepareDatabase();
}
