// setupFiles: point the app's modules at the test database before they load.
import { TEST_DATABASE_URL, TEST_DB } from "./database";

process.env.LOG_LEVEL ??= "silent";
if (TEST_DB === "embedded") {
  delete process.env.DATABASE_URL;
  process.env.STRATA_DATA_DIR = "memory://";
} else {
  process.env.DATABASE_URL = TEST_DATABASE_URL;
}
// The test server is started per file; no file may fall back to the demo model or real OpenAI.
delete process.env.OPENAI_API_KEY;
