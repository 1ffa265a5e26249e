// Starts tests/faults/crash-child.ts: a separate process running real turns and
// compactions on one conversation against the shared test database and model server.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export function spawnTurnChild(options: {
  /** The conversation's owner: the child acts as them. */
  userId: string;
  conversationId: string;
  seed: number;
  modelServerUrl: string;
  env?: Record<string, string>;
}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests/faults/crash-child.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      OPENAI_BASE_URL: options.modelServerUrl,
      OPENAI_API_KEY: "test",
      STRATA_AUTO_MIGRATE: "0",
      CRASH_USER_ID: options.userId,
      CRASH_CONVERSATION_ID: options.conversationId,
      CRASH_SEED: String(options.seed),
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
}
