// Server actions and the API over real HTTP against the production build (`npm start` →
// next start): what Next.js answers with a 500 (a foreign Origin, a body over the 4 MB
// action limit, arguments that are not JSON) is refused by proxy.ts first with 403 / 413
// / 400 and a message, nothing is stored, and Next.js logs no error. Also the app's own
// cross-site rule (an Origin required with the session cookie, the scheme compared) and
// HSTS only over https, here with STRATA_TRUSTED_PROXIES set so that the test's
// X-Forwarded-Proto plays the proxy's.
// Also: what Next.js compresses (a server action's streamed answer is left uncompressed).
// Port: PAGE_WRITES_PORT (default 3254); database: the faults database's name + "_pages".
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { resetDatabase } from "../../lib/db/admin";
import { FAULTS_DATABASE_URL } from "./support/database";

const ROOT = path.resolve(__dirname, "..", "..");
const DATABASE_URL = `${FAULTS_DATABASE_URL}_pages`;
const PORT = Number(process.env.PAGE_WRITES_PORT ?? 3254);
const BASE = `http://127.0.0.1:${PORT}`;
const OVER_LIMIT = 4 * 1024 * 1024 + 1;

let server: ChildProcess;
let output = "";
let db: pg.Client;
let cookie = "";
let token = "";

/** The id of a server action of app/actions.ts in this build. */
function actionId(name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, ".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === name);
  if (!found) throw new Error(`no server action ${name} in the build`);
  return found[0];
}

beforeAll(async () => {
  await resetDatabase(DATABASE_URL);
  server = spawn(process.execPath, ["scripts/start.mjs", "-p", String(PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL,
      BETTER_AUTH_URL: "",
      STRATA_TRUSTED_PROXIES: "127.0.0.1/32",
      STRATA_DEFAULT_MODEL: "gpt-4o-mini",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const append = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000));
  server.stdout!.on("data", append);
  server.stderr!.on("data", append);
  const deadline = Date.now() + 15 * 60_000; // the first start may build
  while (!(await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false))) {
    if (server.exitCode != null || Date.now() > deadline) throw new Error(`npm start did not become healthy:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const signUp = await fetch(`${BASE}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE },
    body: JSON.stringify({ email: "pages@example.com", password: "correct horse battery staple", name: "pages" }),
  });
  expect(signUp.status).toBe(200);
  cookie = signUp.headers.getSetCookie().map((line) => line.split(";")[0]!).find((pair) => pair.includes("session_token="))!;
  const created = await fetch(`${BASE}/api/auth/api-key/create`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE, cookie },
    body: JSON.stringify({ name: "pages" }),
  });
  token = ((await created.json()) as { key: string }).key;
  db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
}, 16 * 60_000);

afterAll(async () => {
  await db?.end();
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
});

const conversations = async () => Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM "Conversation"`)).rows[0]!.n);

/** A server action call as the browser makes it; `headers` add to or replace the browser's (null: leave it out). */
function action(name: string, body: BodyInit, headers: Record<string, string | null> = {}): Promise<Response> {
  const all = { "next-action": actionId(name), "content-type": "text/plain;charset=UTF-8", origin: BASE, cookie, ...headers };
  return fetch(`${BASE}/`, {
    method: "POST",
    headers: Object.entries(all).flatMap(([key, value]) => (value === null ? [] : [[key, value] as [string, string]])),
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** A body sent in chunks, with no Content-Length. */
function chunked(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const size = Math.min(left, 256 * 1024);
      left -= size;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
}

async function refused(response: Response, status: number, message: RegExp): Promise<void> {
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(status);
  expect((JSON.parse(text) as { error: { message: string } }).error.message).toMatch(message);
}

describe("server actions Next.js would answer with a 500", () => {
  it("a well-formed call from the page's own origin works", async () => {
    const response = await action("saveChatDefaultsAction", '[{"instructions":"","temperature":null}]');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"ok":true');
  });

  it("a foreign origin → 403, nothing stored", async () => {
    const before = await conversations();
    await refused(await action("createConversationAction", "[{}]", { origin: "http://evil.example" }), 403, /evil\.example/);
    await refused(await action("createConversationAction", "[{}]", { origin: "null" }), 403, /Cross-site/);
    // The browser's Origin but a forwarded host Next.js would compare it with.
    await refused(await action("createConversationAction", "[{}]", { "x-forwarded-host": "evil.example" }), 403, /evil\.example/);
    expect(await conversations()).toBe(before);
  });

  it("a body over 4 MB → 413, with its length declared or sent in chunks", async () => {
    const big = `["${"a".repeat(OVER_LIMIT)}"]`;
    await refused(await action("createConversationAction", big), 413, /4,194,304 bytes/);
    await refused(await action("createConversationAction", chunked(OVER_LIMIT + 1_000_000)), 413, /4,194,304 bytes/);
  });

  it("arguments that are not JSON → 400, as text or multipart", async () => {
    await refused(await action("createConversationAction", "this is not json{"), 400, /not JSON/);
    const form = new FormData();
    form.set("0", "not json{");
    await refused(await action("createConversationAction", form, { "content-type": null }), 400, /field 0 is not JSON/);
  });

  it("Next.js logged none of them as an error", () => {
    expect(output).not.toMatch(/Body exceeded|Invalid Server Actions request|is not valid JSON/);
  });
});

describe("the cross-site rule over HTTP", () => {
  it("with the session cookie a change needs an Origin, and the scheme counts", async () => {
    const before = await conversations();
    await refused(await action("createConversationAction", "[{}]", { origin: null }), 403, /Origin header/);
    await refused(await action("createConversationAction", "[{}]", { origin: BASE.replace("http:", "https:") }), 403, /Cross-site/);
    const api = (headers: Record<string, string>) =>
      fetch(`${BASE}/api/conversations`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
    await refused(await api({ cookie }), 403, /Origin header/);
    await refused(await api({ cookie, origin: BASE.replace("http:", "https:") }), 403, /Cross-site/);
    expect(await conversations()).toBe(before);
    expect((await api({ cookie, origin: BASE })).status).toBe(201);
    // An API token needs no Origin.
    expect((await api({ authorization: `Bearer ${token}` })).status).toBe(201);
  });

  it("HSTS only on what is served over https", async () => {
    const hsts = async (url: string, headers: Record<string, string> = {}) =>
      (await fetch(url, { headers: { cookie, ...headers }, redirect: "manual" })).headers.get("strict-transport-security");
    expect(await hsts(`${BASE}/`)).toBeNull();
    expect(await hsts(`${BASE}/api/conversations`)).toBeNull();
    expect(await hsts(`${BASE}/`, { "x-forwarded-proto": "https" })).toBe("max-age=31536000; includeSubDomains");
    expect(await hsts(`${BASE}/api/conversations`, { "x-forwarded-proto": "https" })).toBe("max-age=31536000; includeSubDomains");
  });
});

describe("compression", () => {
  it("a server action's answer goes out uncompressed, pages and scripts compressed", async () => {
    const gzip = { "accept-encoding": "gzip, deflate, br, zstd" };
    const answered = await action("createConversationAction", "[{}]", gzip);
    expect(answered.status).toBe(200);
    expect(answered.headers.get("content-encoding")).toBeNull();
    expect(await answered.text()).toContain('"ok":true');

    const page = await fetch(`${BASE}/`, { headers: { cookie, ...gzip } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-encoding")).toBe("gzip");
    const script = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(await page.text())?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`${BASE}${script}`, { headers: gzip })).headers.get("content-encoding")).toBe("gzip");
  });
});
