// Names for prepared statements. With a name, the pg driver prepares a statement once
// per connection and then only binds and executes it: PostgreSQL parses it once, and
// after a few executions plans it once too. A turn's statement that stores the user's
// message spent ≈ 1.9 ms of its 3.6 in parsing and planning when sent unnamed.
//
// A text is named the second time it is sent: the texts that repeat are the app's own
// statements, while a list filter (`IN (...)`, one parameter per value) makes texts that
// vary with the list and may never come back. Each text keeps its name for the life of
// the process (a connection refuses a name reused for another text). Both the names and
// the texts seen once are bounded, so what each connection holds on the server (a parse
// tree and a plan per name) stays small; past the bound, texts go unnamed, parsed each
// time as without this.
export function statementNamer(limits: { names: number; seen: number }): (query: { sql: string }) => string | undefined {
  const names = new Map<string, string>();
  let seenOnce = new Set<string>();
  return ({ sql }) => {
    const known = names.get(sql);
    if (known !== undefined || names.size >= limits.names) return known;
    if (!seenOnce.has(sql)) {
      // Forgetting the texts seen once only delays naming a repeating one.
      if (seenOnce.size >= limits.seen) seenOnce = new Set();
      seenOnce.add(sql);
      return undefined;
    }
    seenOnce.delete(sql);
    const name = `strata_${names.size + 1}`;
    names.set(sql, name);
    return name;
  };
}
