import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// The fault and load suite (npm run test:faults): crash, concurrency, summary-model
// faults, bad input and a small load run, against a dedicated PostgreSQL database
// (strata_faults; FAULTS_DATABASE_URL overrides). Files run one at a time: they share it.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["tests/faults/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    setupFiles: ["tests/faults/support/env.ts"],
    globalSetup: ["tests/faults/support/global-setup.ts"],
  },
});
