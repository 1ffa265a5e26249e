// No secret reaches the browser: not in the built client files (.next/static), not in
// the pages the server renders. The secrets are the ones this very server runs with
// (playwright.config.ts): the model API key, the auth secret, the database URL.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./support/fixtures";
import { E2E_AUTH_SECRET, E2E_MODEL_KEY } from "./support/accounts";
import { E2E_DATABASE_URL } from "./support/database";
import { newConversation } from "./support/helpers";

const STATIC = path.join(process.cwd(), ".next", "static");

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

test("no secret in the client bundle or in rendered pages", async ({ page }) => {
  await page.goto("/");
  const conversation = await newConversation(page);
  const secrets = { "model API key": E2E_MODEL_KEY, "auth secret": E2E_AUTH_SECRET, "database URL": E2E_DATABASE_URL };
  // Names that only server code mentions: finding one means server code was bundled for the browser.
  const serverOnly = ["BETTER_AUTH_SECRET", "PrismaClient", "$queryRaw", "authSecret", "OPENAI_API_KEY"];

  const built = files(STATIC);
  expect(built.filter((file) => file.endsWith(".js")).length).toBeGreaterThan(5);
  for (const file of built) {
    const text = fs.readFileSync(file, "latin1");
    for (const [what, value] of Object.entries(secrets)) expect(text.includes(value), `${what} in ${file}`).toBe(false);
    for (const name of serverOnly) expect(text.includes(name), `"${name}" in ${file}`).toBe(false);
  }

  for (const url of ["/", "/settings", "/account", "/admin", `/c/${conversation}`]) {
    const html = await (await page.request.get(url)).text();
    for (const [what, value] of Object.entries(secrets)) expect(html.includes(value), `${what} in ${url}`).toBe(false);
  }
});
