import { defineConfig } from "prisma/config";

// Only `prisma generate` is used (offline); migrations are applied by scripts/migrate.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
