import { describe, expect, it } from "vitest";
import { statementNamer } from "../../../lib/db/statement-names";

describe("prepared statement names", () => {
  it("gives one name per SQL text, the same every time, and different texts different names", () => {
    const name = statementNamer(10);
    const first = name({ sql: "SELECT 1" });
    expect(first).toBeDefined();
    expect(name({ sql: "SELECT 1" })).toBe(first);
    const second = name({ sql: "SELECT 2" });
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it("stops naming new texts at the bound (they run unnamed), and keeps the names it gave", () => {
    const name = statementNamer(2);
    const a = name({ sql: "SELECT 'a'" });
    const b = name({ sql: "SELECT 'b'" });
    expect(name({ sql: "SELECT 'c'" })).toBeUndefined();
    expect([name({ sql: "SELECT 'a'" }), name({ sql: "SELECT 'b'" })]).toEqual([a, b]);
  });
});
