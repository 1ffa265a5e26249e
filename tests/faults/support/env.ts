// setupFiles: point the app's modules at the fault suite's database before they load.
import { FAULTS_DATABASE_URL } from "./database";

process.env.LOG_LEVEL = "silent";
process.env.DATABASE_URL = FAULTS_DATABASE_URL;
// Each file starts its own test server; nothing may reach a real model.
process.env.OPENAI_API_KEY = "test";
process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
process.env.STRATA_DEFAULT_MODEL = "gpt-4o-mini";
// Account limits the suites' fast scripted turns and sign-ups would trip; the tests of
// those limits set their own.
process.env.STRATA_MESSAGE_RATE_LIMIT ??= "0";
process.env.STRATA_SIGNIN_RATE_LIMIT ??= "1000";
// A crashed child's turn lease (lib/db/turn-lease.ts) blocks its conversation until it
// expires: short here, so the crash test's next child need not wait long.
process.env.STRATA_TURN_LEASE_MS ??= "1500";
