// lib/ must be importable module by module: a cycle among its modules makes the load
// order decide which binding is still undefined (a class used before its module ran),
// and ties together layers that should not know each other. Type-only imports and
// dynamic import() do not count: they load nothing at module evaluation.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const LIB = path.join(ROOT, "lib");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolve(from: string, specifier: string, files: Set<string>): string | null {
  const base = specifier.startsWith("@/") ? path.join(ROOT, specifier.slice(2)) : specifier.startsWith(".") ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null;
  const stem = base.replace(/\.(ts|tsx|js|mjs)$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

/** The modules `file` loads when it is evaluated (value imports and re-exports). */
export function runtimeImports(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((element) => element.isTypeOnly));
      if (!typeOnly) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) && !statement.isTypeOnly) {
      specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

/** Every elementary cycle found by a depth-first walk, each once, as a path of files relative to the repository. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") {
        const cycle = stack.slice(stack.indexOf(next));
        // One key per cycle whatever node the walk entered it by.
        const start = cycle.indexOf([...cycle].sort()[0]!);
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
        cycles.set(rotated.join(" → "), [...rotated, rotated[0]!]);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return [...cycles.values()];
}

function libGraph(): Map<string, string[]> {
  const files = sourceFiles(LIB);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = runtimeImports(file, readFileSync(file, "utf8"))
      .map((specifier) => resolve(file, specifier, known))
      .filter((target): target is string => target !== null);
    graph.set(path.relative(ROOT, file), [...new Set(targets.map((target) => path.relative(ROOT, target)))].sort());
  }
  return graph;
}

describe("lib/ import graph", () => {
  it("finds a cycle and names its path (the check can fail)", () => {
    const graph = new Map([
      ["lib/a.ts", ["lib/b.ts"]],
      ["lib/b.ts", ["lib/c.ts"]],
      ["lib/c.ts", ["lib/a.ts"]],
      ["lib/d.ts", ["lib/a.ts"]],
    ]);
    expect(findCycles(graph)).toEqual([["lib/a.ts", "lib/b.ts", "lib/c.ts", "lib/a.ts"]]);
    expect(runtimeImports("x.ts", 'import type { A } from "./a";\nimport { type B } from "./b";\nimport { c } from "./c";\nexport * from "./d";')).toEqual(["./c", "./d"]);
  });

  it("has no cycle among the modules of lib/", () => {
    const cycles = findCycles(libGraph()).map((cycle) => cycle.join(" → "));
    expect(cycles).toEqual([]);
  });
});
