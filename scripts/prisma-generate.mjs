// `prisma generate` offline: Prisma 7 insists on a schema-engine path but generate
// never runs it, so any existing file will do (see README, "Offline Prisma").
import "./require-node.mjs";
import { spawnSync } from "node:child_process";

const result = spawnSync("npx", ["prisma", "generate"], {
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
process.exit(result.status ?? 1);
