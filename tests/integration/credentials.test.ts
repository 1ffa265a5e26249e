// Passwords and tokens never appear in clear: not in any database row, not in any log
// line (the app's and the auth library's, captured from child processes at the most
// verbose level). Also the strata CLI as scripts use it.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as conversationsRoute from "../../app/api/conversations/route";
import { setupHarness } from "../support/harness";
import { uniqueEmail } from "../support/accounts";

const h = setupHarness();
const ROOT = path.resolve(__dirname, "..", "..");

function run(args: string[], env: Record<string, string>, stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], {
      cwd: ROOT,
      env: { ...process.env, STRATA_AUTO_MIGRATE: "0", LOG_LEVEL: "trace", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    // "close": by "exit" the last of its output may still be unread.
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** Every row of every table, as text. */
async function everyRow(): Promise<string> {
  const tables = await h.db.$queryRaw<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`;
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await h.db.$queryRawUnsafe<{ row: string }[]>(`SELECT row_to_json(t)::text AS row FROM "${name.replaceAll('"', '""')}" t`);
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join("\n");
}

const secret = (label: string) => `${label}-${randomBytes(9).toString("base64url")}`;

describe("credentials in clear", () => {
  it("a password is never stored or logged in clear, whatever path it takes", async () => {
    const flows = {
      FLOW_EMAIL: uniqueEmail("flow"),
      FLOW_PASSWORD: secret("Pw1"),
      FLOW_SHORT_PASSWORD: randomBytes(5).toString("base64url").slice(0, 7),
      FLOW_CLI_EMAIL: uniqueEmail("flowcli"),
      FLOW_CLI_PASSWORD: secret("Pw2"),
    };
    const result = await run(["tests/integration/support/credential-flows.ts"], flows);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("FLOWS DONE");
    // The log did record the flows, the library's lines included (so the search below searched them).
    expect(result.stdout).toMatch(/"module":"auth".*Invalid password/);

    const output = result.stdout + result.stderr;
    const rows = await everyRow();
    for (const password of [flows.FLOW_PASSWORD, flows.FLOW_SHORT_PASSWORD, flows.FLOW_CLI_PASSWORD]) {
      expect(output).not.toContain(password);
      expect(rows).not.toContain(password);
    }
    const account = await h.db.account.findFirstOrThrow({ where: { user: { email: flows.FLOW_EMAIL }, providerId: "credential" } });
    // The library's salted scrypt hash: salt:key in hex.
    expect(account.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
  }, 60_000);

  it("the CLI creates an account from a password on stdin and prints only a working token; token:create prints another", async () => {
    const email = uniqueEmail("ci");
    const password = secret("Pw3");
    const created = await run(["scripts/strata.ts", "user:create", email, "--name", "ci"], {}, `${password}\n`);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^strata_[A-Za-z]{48}$/);
    expect(created.stderr).toContain(`Created ${email}`);
    expect(created.stdout + created.stderr).not.toContain(password);
    expect(await everyRow()).not.toContain(token);

    const response = await conversationsRoute.GET(new Request("http://localhost/api/conversations", { headers: { authorization: `Bearer ${token}` } }));
    expect(response.status).toBe(200);

    const again = await run(["scripts/strata.ts", "token:create", email], {});
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toMatch(/^strata_[A-Za-z]{48}$/);
    expect(again.stdout.trim()).not.toBe(token);
    expect(await h.db.apikey.count({ where: { user: { email } } })).toBe(2);
  }, 60_000);

  it("the CLI refuses bad input with a clear message and exit code 1, creating nothing", async () => {
    const users = await h.db.user.count();
    const cases: [string[], string, RegExp][] = [
      [["user:create", "not-an-email"], "long enough password", /not an email address/],
      [["user:create", uniqueEmail("short")], "short", /password is too short: use at least 12 characters/i],
      [["token:create", uniqueEmail("nobody")], "", /No account for/],
      [["user:delete", "x@example.com"], "", /usage/],
    ];
    for (const [args, stdin, message] of cases) {
      const result = await run(["scripts/strata.ts", ...args], {}, stdin);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe("");
    }
    expect(await h.db.user.count()).toBe(users);
  }, 120_000);
});
