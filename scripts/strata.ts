// Account administration from a shell, for scripts and CI (README, "Accounts"):
//   npm run -s strata -- user:create EMAIL [--name TOKEN_NAME]   password on stdin; prints a new API token
//   npm run -s strata -- token:create EMAIL [--name TOKEN_NAME]  prints a new API token
// Only the token goes to stdout, so `TOKEN=$(… | npm run -s strata -- user:create …)` works.
// Uses the same database settings as the app (DATABASE_URL, or the embedded one).
import "./cli-env";
import { createInterface } from "node:readline";
import { z } from "zod";
import { createAccount } from "../lib/auth/accounts";
import { createToken } from "../lib/auth/tokens";
import { tokenNameSchema } from "../lib/auth/token-input";
import { closeDb, getDb } from "../lib/db/client";
import { findUserByEmail } from "../lib/db/users";
import { AppError } from "../lib/errors";

const USAGE = `usage:
  npm run -s strata -- user:create EMAIL [--name TOKEN_NAME]    (password on stdin)
  npm run -s strata -- token:create EMAIL [--name TOKEN_NAME]`;

const argsSchema = z.tuple([z.enum(["user:create", "token:create"]), z.string().min(1)]);

function parseArgs(argv: string[]) {
  const nameAt = argv.indexOf("--name");
  const name = nameAt >= 0 ? argv[nameAt + 1] : undefined;
  const positional = nameAt >= 0 ? [...argv.slice(0, nameAt), ...argv.slice(nameAt + 2)] : argv;
  const parsed = argsSchema.safeParse(positional);
  if (!parsed.success || (nameAt >= 0 && !name)) throw new AppError("invalid_input", USAGE);
  return { command: parsed.data[0], email: parsed.data[1], name };
}

/** The password: the whole of stdin when piped (one trailing newline dropped), else typed without echo. */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let input = "";
    for await (const chunk of process.stdin) input += String(chunk);
    return input.replace(/\r?\n$/, "");
  }
  process.stderr.write("Password: ");
  const reader = createInterface({ input: process.stdin, terminal: true });
  // Typed characters are not echoed: the interface's own output is swallowed.
  (reader as unknown as { _writeToOutput: () => void })._writeToOutput = () => undefined;
  const line = await new Promise<string>((resolve) => reader.once("line", resolve));
  reader.close();
  process.stderr.write("\n");
  return line;
}

async function main(): Promise<void> {
  const { command, email, name } = parseArgs(process.argv.slice(2));
  const tokenName = tokenNameSchema.parse(name ?? `cli ${new Date().toISOString().slice(0, 10)}`);
  let user;
  if (command === "user:create") {
    user = await createAccount(email, await readPassword());
    process.stderr.write(`Created ${user.email}${user.role === "admin" ? " (the first account: admin)" : ""}.\n`);
  } else {
    user = await findUserByEmail(await getDb(), email);
    if (!user) throw new AppError("not_found", `No account for ${email}.`);
  }
  const { token } = await createToken(user.id, tokenName);
  process.stderr.write(`API token "${tokenName}" for ${user.email} (shown once):\n`);
  process.stdout.write(`${token}\n`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`strata: ${error instanceof AppError || error instanceof z.ZodError ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
