import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// Two projects, so that only the integration tests get a database: its global setup
// (create and migrate one per run) runs only when an integration file is selected, and
// `npm run test:unit` works with no PostgreSQL at all.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration files share one database; run files one at a time.
    fileParallelism: false,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], setupFiles: ["tests/unit/support/env.ts"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          setupFiles: ["tests/integration/support/env.ts"],
          globalSetup: ["tests/integration/support/global-setup.ts"],
        },
      },
    ],
  },
});
