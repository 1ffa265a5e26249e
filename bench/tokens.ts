// Benchmark 6 — token counting throughput: tiktoken (WASM) vs js-tiktoken (pure JS)
// on 1 MB of text, same encodings, alternating runs; checks that lib/llm/tokens uses
// the faster one and that both agree on the counts.
//
//   npx tsx bench/tokens.ts
import "./lib/env";
import { readFileSync } from "node:fs";
import path from "node:path";
import { get_encoding } from "tiktoken";
import { getEncoding } from "js-tiktoken";
import { appendResults, fmt, fmtInt, median, printTable, ROOT, runMain, seededRandom, verdictTable, type Verdict } from "./lib/common";
import { countTextTokens } from "../lib/llm/tokens";

const RUNS = 7;

/** ~1 MB of mixed text: prose, code, Markdown, numbers and some non-ASCII. */
function corpus(bytes: number): string {
  const random = seededRandom(42);
  const sources = [
    readFileSync(path.join(ROOT, "lib/compression/manager.ts"), "utf8"),
    readFileSync(path.join(ROOT, "lib/llm/demo-server/index.ts"), "utf8"),
    "Strata keeps long conversations within the model's window by summarising older messages. ".repeat(20),
    "Zürich, Kraków, São Paulo, 東京, Москва — naïve café résumé. 🙂 ".repeat(10),
    Array.from({ length: 200 }, () => Math.floor(random() * 1e9)).join(", "),
  ];
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const source = sources[Math.floor(random() * sources.length)]!;
    const start = Math.floor(random() * Math.max(1, source.length - 4000));
    const piece = source.slice(start, start + 4000);
    parts.push(piece);
    size += Buffer.byteLength(piece);
  }
  return parts.join("\n");
}

async function main() {
  const text = corpus(1024 * 1024);
  const bytes = Buffer.byteLength(text);
  const rows: (string | number)[][] = [];
  const verdicts: Verdict[] = [];
  let appVsWasm = 0;
  for (const encoding of ["o200k_base", "cl100k_base"] as const) {
    const setupWasm = performance.now();
    const wasm = get_encoding(encoding);
    const wasmSetup = performance.now() - setupWasm;
    const setupJs = performance.now();
    const js = getEncoding(encoding);
    const jsSetup = performance.now() - setupJs;
    const wasmTimes: number[] = [];
    const jsTimes: number[] = [];
    const appTimes: number[] = [];
    let wasmCount = 0;
    let jsCount = 0;
    let appCount = 0;
    const model = encoding === "o200k_base" ? "gpt-4o-mini" : "gpt-4";
    for (let run = 0; run < RUNS; run++) {
      let started = performance.now();
      wasmCount = wasm.encode_ordinary(text).length;
      wasmTimes.push(performance.now() - started);
      started = performance.now();
      jsCount = js.encode(text, [], []).length;
      jsTimes.push(performance.now() - started);
      started = performance.now();
      appCount = countTextTokens(text, model);
      appTimes.push(performance.now() - started);
    }
    wasm.free();
    const mbps = (ms: number) => bytes / 1024 / 1024 / (ms / 1000);
    rows.push(
      [encoding, "tiktoken (WASM)", fmtInt(wasmCount), fmt(wasmSetup, 0), fmt(median(wasmTimes), 1), fmt(mbps(median(wasmTimes)), 2)],
      [encoding, "js-tiktoken", fmtInt(jsCount), fmt(jsSetup, 0), fmt(median(jsTimes), 1), fmt(mbps(median(jsTimes)), 2)],
      [encoding, "lib/llm/tokens countTextTokens", fmtInt(appCount), "–", fmt(median(appTimes), 1), fmt(mbps(median(appTimes)), 2)],
    );
    const faster = median(wasmTimes) < median(jsTimes) ? "tiktoken" : "js-tiktoken";
    rows.push([encoding, "ratio js-tiktoken ÷ tiktoken", "", "", `${fmt(median(jsTimes) / median(wasmTimes), 2)}×`, `faster: ${faster}`]);
    verdicts.push({ target: `${encoding}: both libraries count the same`, measured: `${fmtInt(wasmCount)} vs ${fmtInt(jsCount)}`, met: wasmCount === jsCount });
    verdicts.push({ target: `${encoding}: the app's counter matches tiktoken`, measured: fmtInt(appCount), met: appCount === wasmCount });
    if (encoding === "o200k_base") {
      appVsWasm = median(appTimes) / median(wasmTimes);
      verdicts.push({ target: "the app uses the faster library", measured: `faster: ${faster}; app/tiktoken time ${fmt(appVsWasm, 2)}×`, met: faster === "tiktoken" && appVsWasm < 1.5 });
    }
  }
  const source = readFileSync(path.join(ROOT, "lib/llm/tokens.ts"), "utf8");
  const usesWasm = /from "tiktoken"/.test(source) && !/from "js-tiktoken"/.test(source);
  verdicts.push({ target: "lib/llm/tokens imports tiktoken (WASM), not js-tiktoken", measured: usesWasm ? "tiktoken" : "js-tiktoken", met: usesWasm });

  const table = { headers: ["encoding", "library", "tokens", "setup ms", "median ms / 1 MB", "MB/s"], rows };
  printTable(`Token counting, ${fmt(bytes / 1024 / 1024, 2)} MB of text, ${RUNS} alternating runs`, table);
  printTable("Checks", verdictTable(verdicts));
  appendResults("6. Token counting throughput", {
    intro: `tiktoken 1.0.22 (WASM) vs js-tiktoken 1.0.21 on ${fmt(bytes / 1024 / 1024, 2)} MB of mixed text (code, prose, non-ASCII, numbers); ${RUNS} alternating runs, medians.`,
    tables: [{ table }, { caption: "Checks", table: verdictTable(verdicts) }],
  });
}

runMain(main);
