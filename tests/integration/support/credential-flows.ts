// Child process of tests/integration/credentials.test.ts: every path a password takes
// (sign-up, wrong and right sign-in, refused sign-up, the CLI's account creation), with
// the logger at its most verbose, so the parent can search all of its output.
// Environment: DATABASE_URL, FLOW_EMAIL, FLOW_PASSWORD, FLOW_SHORT_PASSWORD, FLOW_CLI_EMAIL, FLOW_CLI_PASSWORD.
export {};
process.env.LOG_LEVEL = "trace";

const { signUp, signIn, signInResponse } = await import("../../support/accounts");
const { createAccount } = await import("../../../lib/auth/accounts");
const { closeDb } = await import("../../../lib/db/client");
const env = (name: string) => process.env[name]!;

await signUp(env("FLOW_EMAIL"), env("FLOW_PASSWORD"));
await signInResponse(env("FLOW_EMAIL"), `${env("FLOW_PASSWORD")}-wrong`);
await signIn(env("FLOW_EMAIL"), env("FLOW_PASSWORD"));
await signInResponse(`nobody-${env("FLOW_EMAIL")}`, env("FLOW_PASSWORD"));
await signUp(`short-${env("FLOW_EMAIL")}`, env("FLOW_SHORT_PASSWORD")).catch(() => undefined);
await createAccount(env("FLOW_CLI_EMAIL"), env("FLOW_CLI_PASSWORD"));
await closeDb();
console.log("FLOWS DONE");
