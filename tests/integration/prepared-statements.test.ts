// The app's PostgreSQL client names its statements (lib/db/statement-names.ts), so the
// server parses and plans each once per connection instead of on every call. PGlite
// runs in process and has no such step: PostgreSQL only.
import { describe, expect, it } from "vitest";
import { TEST_DB } from "./support/database";
import { setupHarness } from "../support/harness";

const h = setupHarness();

describe.skipIf(TEST_DB === "embedded")("the app's PostgreSQL client", () => {
  it("prepares a statement that repeats (from its second run) and executes it again without parsing it", async () => {
    // One transaction: one connection, whose prepared statements the view lists.
    const rows = await h.db.$transaction(async (tx) => {
      for (let run = 0; run < 3; run++) await tx.$queryRaw`SELECT 'prepared-statement probe' AS probe, ${run}::int AS run`;
      return tx.$queryRaw<{ name: string; executions: number }[]>`
        SELECT name, (generic_plans + custom_plans)::int AS executions FROM pg_prepared_statements
        WHERE statement LIKE '%' || 'prepared-statement' || ' probe%'`;
    });
    // The first run went unnamed (a text sent once is never prepared); the next two used one prepared statement.
    expect(rows).toHaveLength(1);
    expect(rows[0]!.executions).toBe(2);
  });
});
