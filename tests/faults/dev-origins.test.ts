// `npm run dev` opened at 127.0.0.1 or a LAN address: Next 16 serves its dev
// resources (/_next/*, the HMR socket) only to origins it knows, and a page whose
// scripts are refused renders but never hydrates. next.config.ts lists every address
// of the machine; this checks the dev server's answer for each, and that an unknown
// origin is still refused (so the check can fail). next dev also adds to tsconfig.json's
// "include" whatever type folders it misses; tsconfig.json lists them already, so a dev
// run leaves it (and the source hash npm start builds by) unchanged.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");
const PORT = Number(process.env.DEV_ORIGINS_PORT ?? 3252);
const TSCONFIG = path.join(ROOT, "tsconfig.json");
let dev: ChildProcess;
let output = "";
let tsconfigBefore = "";

beforeAll(async () => {
  tsconfigBefore = readFileSync(TSCONFIG, "utf8");
  dev = spawn(path.join(ROOT, "node_modules", ".bin", "next"), ["dev", "-p", String(PORT), "-H", "0.0.0.0"], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  dev.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 180_000;
  while (!(await fetch(`http://127.0.0.1:${PORT}/_next/static/none.js`).then(() => true, () => false))) {
    if (dev.exitCode != null || Date.now() > deadline) throw new Error(`next dev did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 200_000);

afterAll(() => {
  dev?.kill("SIGTERM");
});

function devResource(origin: string): Promise<number> {
  return fetch(`http://127.0.0.1:${PORT}/_next/static/chunks/strata-origin-check.js`, { headers: { origin } }).then((r) => r.status);
}

const lanAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((entry) => entry && !entry.internal && entry.family === "IPv4")
  .map((entry) => entry!.address);

describe("next dev from other addresses", () => {
  it("serves its dev resources to pages opened at 127.0.0.1 and at the machine's LAN addresses", async () => {
    for (const host of ["127.0.0.1", "localhost", ...lanAddresses]) {
      expect(await devResource(`http://${host}:${PORT}`), host).not.toBe(403);
    }
  });

  it("still refuses an origin that is not this machine", async () => {
    expect(await devResource("http://attacker.example")).toBe(403);
  });

  it("leaves tsconfig.json as it is (an edit there would make the next npm start rebuild)", () => {
    expect(readFileSync(TSCONFIG, "utf8")).toBe(tsconfigBefore);
  });
});
