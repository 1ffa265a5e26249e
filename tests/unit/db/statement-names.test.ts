import { describe, expect, it } from "vitest";
import { statementNamer } from "../../../lib/db/statement-names";

describe("prepared statement names", () => {
  it("names a text the second time it is sent, then always with the same name; different texts get different names", () => {
    const name = statementNamer({ names: 10, seen: 10 });
    expect(name({ sql: "SELECT 1" })).toBeUndefined();
    const first = name({ sql: "SELECT 1" });
    expect(first).toBeDefined();
    expect(name({ sql: "SELECT 1" })).toBe(first);
    name({ sql: "SELECT 2" });
    const second = name({ sql: "SELECT 2" });
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it("a text sent once never takes a name", () => {
    const name = statementNamer({ names: 1, seen: 10 });
    for (let n = 0; n < 5; n++) expect(name({ sql: `SELECT ${n} WHERE id IN (${"$1, ".repeat(n)}$0)` })).toBeUndefined();
    name({ sql: "SELECT 'hot'" });
    expect(name({ sql: "SELECT 'hot'" })).toBeDefined();
  });

  it("stops naming new texts at the bound (they run unnamed), and keeps the names it gave", () => {
    const name = statementNamer({ names: 2, seen: 10 });
    const twice = (sql: string) => (name({ sql }), name({ sql }));
    const a = twice("SELECT 'a'");
    const b = twice("SELECT 'b'");
    expect(twice("SELECT 'c'")).toBeUndefined();
    expect([name({ sql: "SELECT 'a'" }), name({ sql: "SELECT 'b'" })]).toEqual([a, b]);
  });

  it("forgets texts seen once past its bound: a repeating text is named on a later pass", () => {
    const name = statementNamer({ names: 10, seen: 2 });
    name({ sql: "SELECT 'x'" });
    name({ sql: "SELECT 'y'" });
    name({ sql: "SELECT 'z'" }); // the set of texts seen once was full: forgotten, then 'z' kept
    expect(name({ sql: "SELECT 'x'" })).toBeUndefined();
    expect(name({ sql: "SELECT 'x'" })).toBeDefined();
  });
});
