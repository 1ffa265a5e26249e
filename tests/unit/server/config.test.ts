import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, parseConfig } from "../../../lib/config";

function problems(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("configuration", () => {
  it("has a default for every limit and treats blank variables as unset", () => {
    const config = parseConfig({ STRATA_MAX_BODY_BYTES: "  ", LOG_LEVEL: "" });
    expect(config.STRATA_MAX_BODY_BYTES).toBe(1_048_576);
    expect(config.STRATA_MAX_MESSAGE_CHARS).toBe(100_000);
    expect(config.STRATA_MODEL_TIMEOUT_MS).toBe(120_000);
    expect(config.STRATA_MODEL_MAX_RETRIES).toBeUndefined();
    expect(config.LOG_LEVEL).toBeUndefined();
    expect(config.STRATA_AUTO_MIGRATE).toBe("1");
  });

  it("runs several server processes only on a database they can share", () => {
    expect(parseConfig({}).STRATA_PROCESSES).toBe(1);
    expect(problems({ STRATA_PROCESSES: "2" })).toEqual([
      'STRATA_PROCESSES above 1 needs DATABASE_URL: the embedded database serves one process (got "2" without DATABASE_URL)',
    ]);
    expect(parseConfig({ STRATA_PROCESSES: "2", DATABASE_URL: "postgresql://127.0.0.1/strata" }).STRATA_PROCESSES).toBe(2);
    expect(problems({ STRATA_PROCESSES: "0", DATABASE_URL: "postgresql://127.0.0.1/strata" })[0]).toMatch(/^STRATA_PROCESSES must be a whole number from 1 to 64/);
  });

  it("names the same messages on both sides of the process group (scripts/processes.mjs, lib/server/process-metrics.ts)", async () => {
    const primary = readFileSync(path.join(__dirname, "../../../scripts/processes.mjs"), "utf8");
    const worker = await import("../../../lib/server/process-metrics");
    const named = (name: string) => new RegExp(`export const ${name} = "([^"]+)"`).exec(primary)?.[1];
    expect([named("METRICS_COLLECT"), named("METRICS_REPORT"), named("METRICS_RESULT")]).toEqual([worker.METRICS_COLLECT, worker.METRICS_REPORT, worker.METRICS_RESULT]);
  });

  it("reads valid values as numbers", () => {
    const config = parseConfig({ STRATA_MAX_BODY_BYTES: "2048", STRATA_MODEL_MAX_RETRIES: "0", STRATA_MESSAGE_RATE_LIMIT: " 0 " });
    expect(config.STRATA_MAX_BODY_BYTES).toBe(2048);
    expect(config.STRATA_MODEL_MAX_RETRIES).toBe(0);
    expect(config.STRATA_MESSAGE_RATE_LIMIT).toBe(0);
  });

  it("names the variable, the accepted range and the value it got", () => {
    expect(problems({ STRATA_MAX_BODY_BYTES: "1mb" })).toEqual([
      'STRATA_MAX_BODY_BYTES must be a whole number from 1,024 to 104,857,600 (got "1mb")',
    ]);
    expect(problems({ STRATA_MODEL_TIMEOUT_MS: "5" })[0]).toMatch(/^STRATA_MODEL_TIMEOUT_MS must be a whole number from 1,000 to 3,600,000/);
    expect(problems({ STRATA_MAX_MESSAGE_CHARS: "1.5" })[0]).toMatch(/^STRATA_MAX_MESSAGE_CHARS must be a whole number/);
    expect(problems({ STRATA_SIGNUPS: "maybe" })[0]).toBe('STRATA_SIGNUPS must be one of: open, closed (got "maybe")');
    expect(problems({ DATABASE_URL: "mysql://x" })[0]).toMatch(/^DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\//);
    expect(problems({ LOG_LEVEL: "loud" })[0]).toMatch(/^LOG_LEVEL must be one of: fatal, error/);
    expect(problems({ STRATA_SERVER_TIMING: "yes" })).toEqual(['STRATA_SERVER_TIMING must be one of: 0, 1 (got "yes")']);
  });

  it("lists every invalid variable at once", () => {
    expect(problems({ STRATA_MAX_BODY_BYTES: "x", STRATA_MODEL_MAX_RETRIES: "-1" }).map((p) => p.split(" ")[0]).sort()).toEqual([
      "STRATA_MAX_BODY_BYTES",
      "STRATA_MODEL_MAX_RETRIES",
    ]);
  });

  it("accepts .env.example as it is, and it lists only variables the schema knows", () => {
    const env: Record<string, string> = {};
    for (const line of readFileSync(path.resolve(__dirname, "../../../.env.example"), "utf8").split("\n")) {
      const match = /^([A-Z0-9_]+)=(.*)$/.exec(line);
      if (match) env[match[1]!] = match[2]!;
    }
    expect(problems(env)).toEqual([]);
    expect(Object.keys(env).filter((name) => !(CONFIG_VARIABLES as string[]).includes(name))).toEqual([]);
  });

  it("is the only server code that reads Strata's variables from process.env", () => {
    const root = path.resolve(__dirname, "../../..");
    // Next's own variables, set by Next itself rather than by whoever runs Strata.
    const nextOwn = new Set(["NODE_ENV", "NEXT_RUNTIME"]);
    const sources = (relative: string): string[] => {
      const absolute = path.join(root, relative);
      if (relative === path.join("lib", "db", "generated")) return [];
      if (statSync(absolute).isDirectory()) return readdirSync(absolute).flatMap((name) => sources(path.join(relative, name)));
      return /\.(ts|tsx|mjs)$/.test(relative) ? [relative] : [];
    };
    const reads = ["app", "components", "lib", "proxy.ts", "instrumentation.ts"]
      .flatMap(sources)
      .filter((file) => file !== path.join("lib", "config.ts"))
      .flatMap((file) =>
        [...readFileSync(path.join(root, file), "utf8").matchAll(/process\.env(?:\.([A-Za-z0-9_]+)|\[)/g)]
          .filter((match) => !nextOwn.has(match[1] ?? ""))
          .map((match) => `${file}: ${match[0]}`),
      );
    expect(reads).toEqual([]);
  });
});
