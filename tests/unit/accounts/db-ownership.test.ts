// "The db layer takes the user id on every query that reads or writes owned rows": read
// from the source of lib/db. Every function there that is handed the database and
// queries an owned table (through Prisma or in raw SQL) must take `userId`. The only
// exceptions are module-private helpers, listed below with the reason their caller
// has already checked the owner; an exported function is never excused.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const DB_DIR = path.resolve(__dirname, "..", "..", "..", "lib", "db");

// Prisma delegates and SQL table names of the rows that belong to a user.
const OWNED_QUERY =
  /\.(conversation|message|compaction|compactionAttempt|userSettings|conversationImport)\.(find\w*|create\w*|update\w*|delete\w*|upsert|count|aggregate|groupBy)\b|"(Conversation|Message|Compaction|CompactionAttempt|UserSettings|ConversationImport)"/;

const LOCAL_HELPERS: Record<string, string> = {
  "compactions.ts:insertCompaction": "called only by saveCompressionChange, inside its transaction, after the owned conversation row was locked",
  "compactions.ts:setOutOfView": "called only by saveCompressionChange, inside its transaction, after the owned conversation row was locked",
  "compactions.ts:childrenOf": "counts children of compactions the caller has just loaded through an owned query, and the messages they cover",
  "messages.ts:checkToolResults": "called only by appendRowsInTx, which locks the owned conversation row first",
  "transcript.ts:readActive": "called only by readTranscript, after readHead read the conversation row filtered on the owner",
  "versions.ts:versionsOf": "reads the versions of messages the caller has just loaded through an owned query",
  "prices.ts:callGroups": "its callers hand it a scope of conversations already filtered on the owner's userId",
  "prices.ts:compactionCosts": "called only by conversationCost, after assertOwnsConversation checked the owner",
  "message-delete.ts:groupOf": "called only by deleteMessage, inside the transaction that first locked the conversation row filtered on the owner's userId",
  "undo.ts:undoneRows": "called only by undoneTimelineItems (from loadTimeline, after its owned head query) and listUndone (from the Activity panel, after listAttempts checked the owner)",
  "versions.ts:branchSizes": "counts the branches of versions versionsOf has just read for messages loaded through an owned query",
};

// Exported queries that read every user's rows on purpose: only the admin reaches them,
// and the operation calling each checks that first (assertAdmin).
const ADMIN_QUERIES: Record<string, string> = {
  "user-list.ts:listUsersPage": "the admin's user list with each user's usage; lib/chat/admin-user-ops.ts:listUsers checks assertAdmin first",
};

type DbFunction = { key: string; exported: boolean; params: string[]; queriesOwnedRows: boolean };

function functionsOf(file: string): DbFunction[] {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(DB_DIR, file), "utf8"), ts.ScriptTarget.Latest, true);
  const found: DbFunction[] = [];
  const add = (name: string, fn: ts.SignatureDeclaration & { body?: ts.Node }, statement: ts.Statement) => {
    if (!fn.body) return;
    const params = fn.parameters.map((parameter) => parameter.name.getText(source));
    // Only functions handed the database (or a transaction) query it.
    if (!params.some((param) => param === "db" || param === "tx")) return;
    const exported = ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    found.push({ key: `${file}:${name}`, exported, params, queriesOwnedRows: OWNED_QUERY.test(fn.body.getText(source)) });
  };
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) add(statement.name.text, statement, statement);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const init = declaration.initializer;
        if (init && ts.isIdentifier(declaration.name) && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) add(declaration.name.text, init, statement);
      }
    }
  }
  return found;
}

const files = fs.readdirSync(DB_DIR).filter((name) => name.endsWith(".ts"));
const all = files.flatMap(functionsOf);
const owned = all.filter((fn) => fn.queriesOwnedRows);

describe("lib/db takes the user id on every query of owned rows", () => {
  it("finds the queries (the scan is not looking at nothing)", () => {
    expect(owned.length).toBeGreaterThan(25);
    for (const known of ["conversations.ts:getConversation", "search.ts:searchHistory", "import.ts:importConversation", "turn-lease.ts:takeTurnLease"]) {
      expect(owned.map((fn) => fn.key)).toContain(known);
    }
  });

  it("every function that queries owned rows takes userId, unless it is a listed private helper", () => {
    const missing = owned.filter(
      (fn) => !fn.params.includes("userId") && !(fn.key in ADMIN_QUERIES) && (fn.exported || !(fn.key in LOCAL_HELPERS)),
    );
    expect(missing.map((fn) => `${fn.key}(${fn.params.join(", ")})`), "add a userId parameter and filter on it").toEqual([]);
  });

  it("every listed helper is still private, still queries owned rows and still lacks userId", () => {
    for (const key of Object.keys(LOCAL_HELPERS)) {
      const fn = owned.find((candidate) => candidate.key === key);
      expect(fn, `${key}: no longer queries owned rows; remove it from LOCAL_HELPERS`).toBeDefined();
      expect(fn!.exported, `${key} is exported: give it a userId`).toBe(false);
      expect(fn!.params, `${key} takes userId now; remove it from LOCAL_HELPERS`).not.toContain("userId");
    }
  });
});
