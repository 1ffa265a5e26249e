import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration files share one database; run files one at a time.
    fileParallelism: false,
    setupFiles: ["tests/integration/support/env.ts"],
    globalSetup: ["tests/integration/support/global-setup.ts"],
  },
});
