// setupFiles: point the app's modules at this run's test database before they load.
import { TEST_DB } from "./database";

process.env.LOG_LEVEL ??= "silent";
if (TEST_DB === "embedded") {
  delete process.env.DATABASE_URL;
  process.env.STRATA_DATA_DIR = "memory://";
} else {
  const url = process.env.STRATA_RUN_DATABASE_URL;
  if (!url) throw new Error("The integration global setup did not create a database for this run.");
  process.env.DATABASE_URL = url;
}
// The test server is started per file; no file may fall back to the demo model or real OpenAI.
delete process.env.OPENAI_API_KEY;
// Account limits the suites' fast scripted turns and sign-ups would trip; the tests of
// those limits set their own.
process.env.STRATA_MESSAGE_RATE_LIMIT ??= "0";
process.env.STRATA_SIGNIN_RATE_LIMIT ??= "1000";
