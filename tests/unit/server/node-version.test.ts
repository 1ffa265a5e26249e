// The Node.js version check that `npm start`, `npm run dev` and `npm test` run first
// (scripts/require-node.mjs), against package.json's own "engines".
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { minimumOf, nodeVersionProblem, olderThan } from "../../../scripts/node-version.mjs";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const engines = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;

describe("the Node.js version check", () => {
  it("reads the minimum from an engines range", () => {
    expect(minimumOf(">=22.12")).toEqual([22, 12, 0]);
    expect(minimumOf(">= 24")).toEqual([24, 0, 0]);
    expect(minimumOf(">=22.12.1")).toEqual([22, 12, 1]);
    expect(() => minimumOf("^22 || ^24")).toThrow(/engines\.node must read/);
  });

  it("compares part by part, numerically", () => {
    expect(olderThan("v20.20.2", [22, 12, 0])).toBe(true);
    expect(olderThan("v22.11.9", [22, 12, 0])).toBe(true);
    expect(olderThan("v22.12.0", [22, 12, 0])).toBe(false);
    expect(olderThan("v22.9.0", [22, 12, 0])).toBe(true); // 9 < 12, not "9" > "1"
    expect(olderThan("v24.0.0", [22, 12, 0])).toBe(false);
    expect(olderThan("v100.0.0", [22, 12, 0])).toBe(false);
  });

  it("says what is needed, what this is and what to run; nothing for a version that will do", () => {
    expect(nodeVersionProblem("v20.20.2", ">=22.12")).toBe(
      "Strata needs Node.js 22.12 or newer; this is Node.js 20.20.2.\n" +
        "Run `. scripts/ensure-node.sh` in this shell (it installs Node 24 LTS from the npm registry\n" +
        "into ~/.cache/strata-node when needed), then run the command again.",
    );
    expect(nodeVersionProblem("v24.21.0", ">=22.12")).toBeNull();
    // The Node running these tests satisfies the project's own range.
    expect(nodeVersionProblem(process.version, engines)).toBeNull();
  });

  // The machine's Debian Node (20) when there is one: npm start stops before anything else.
  const systemNode = "/usr/bin/node";
  const systemVersion = existsSync(systemNode) ? spawnSync(systemNode, ["--version"], { encoding: "utf8" }).stdout.trim() : "";
  it.skipIf(!systemVersion || !olderThan(systemVersion, minimumOf(engines)))(`npm start under ${systemVersion || "an older Node"} stops at once, saying what to run`, () => {
    const result = spawnSync(systemNode, ["scripts/start.mjs", "-p", "0"], { cwd: ROOT, encoding: "utf8", timeout: 20_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`this is Node.js ${systemVersion.slice(1)}`);
    expect(result.stderr).toContain(". scripts/ensure-node.sh");
    expect(result.stdout).toBe("");
  });
});
