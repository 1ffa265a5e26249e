// Token counting of text without spaces (issue 25): tiktoken's encode_ordinary on the
// whole text (what lib/llm/tokens did before) against countText (lib/llm/token-count.mjs,
// linear: long pre-tokenizer pieces merged with a heap; countTextTokens without the
// memory of long texts it has counted, which would make every run after the first
// free), 30,000 characters of each kind; and countText alone on 100,000 (tiktoken takes
// 7–23 s there, so it is not rerun). Counts must be equal.
//
//   npx tsx bench/long-runs.ts
import "./lib/env";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { appendResults, fmt, fmtInt, median, printTable, ROOT, runMain, verdictTable, type Verdict } from "./lib/common";
import { countText } from "../lib/llm/token-count.mjs";
import { getEncoder } from "../lib/llm/tokens";
import { warmTokenCounting, closeTokenPool } from "../lib/llm/token-pool";

const RUNS = 3;
const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

function ideographs(length: number): string {
  let text = "";
  let x = 1;
  while (text.length < length) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    text += String.fromCharCode(0x4e00 + (x % 20000));
  }
  return text;
}

const KINDS: Record<string, (length: number) => string> = {
  "Chinese, no punctuation": (n) => repeatTo("我们在这里讨论长对话的压缩方法并且希望服务器不会被一个用户阻塞所以需要线性的计数", n),
  "Japanese, no punctuation": (n) => repeatTo("これは長い会話を圧縮するためのテストですサーバーが一人のユーザーによって止まらないように", n),
  "rare CJK ideographs": ideographs,
  '"a" repeated': (n) => "a".repeat(n),
  "spaces": (n) => " ".repeat(n),
  "base64": (n) => randomBytes(n).toString("base64").slice(0, n),
  "minified code": (n) => repeatTo(readFileSync(path.join(ROOT, "lib/compression/manager.ts"), "utf8").replace(/\s+/g, ""), n),
  "English prose (README)": (n) => repeatTo(readFileSync(path.join(ROOT, "README.md"), "utf8"), n),
};

function timeMs(work: () => number): { ms: number; count: number } {
  const times: number[] = [];
  let count = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    count = work();
    times.push(performance.now() - started);
  }
  return { ms: median(times), count };
}

async function main() {
  // As a server does at start: the encoder and the rank table for long pieces are ready.
  await warmTokenCounting();
  const rows: (string | number)[][] = [];
  const verdicts: Verdict[] = [];
  let worst100k = 0;
  for (const [kind, make] of Object.entries(KINDS)) {
    const text30 = make(30_000);
    const before = timeMs(() => getEncoder("o200k_base").encode_ordinary(text30).length);
    const after = timeMs(() => countText(text30, "o200k_base"));
    const text100 = make(100_000);
    const after100 = timeMs(() => countText(text100, "o200k_base"));
    worst100k = Math.max(worst100k, after100.ms);
    // 3.3 times the text: linear is ~3.3×, quadratic ~11×. A ratio, because the machine is shared.
    const growth = after100.ms / after.ms;
    if (after.ms >= 5) verdicts.push({ target: `${kind}: 100,000 characters cost under 6× 30,000 (linear)`, measured: `${fmt(growth, 1)}×`, met: growth < 6 });
    rows.push([kind, fmtInt(after.count), fmt(before.ms, 1), fmt(after.ms, 1), `${fmt(before.ms / after.ms, 1)}×`, fmt(after100.ms, 1)]);
    verdicts.push({ target: `${kind}: the same count as tiktoken`, measured: `${fmtInt(after.count)} vs ${fmtInt(before.count)}`, met: after.count === before.count });
  }
  verdicts.push({ target: "100,000 characters of any kind under 100 ms (quiet machine; informative here)", measured: `worst ${fmt(worst100k, 1)} ms`, met: worst100k < 100 });
  await closeTokenPool();
  const table = { headers: ["text", "tokens (30k chars)", "tiktoken whole, ms", "countText, ms", "speed-up", "countText, 100k chars, ms"], rows };
  printTable("Token counting of long runs without spaces (o200k_base), medians of 3", table);
  printTable("Checks", verdictTable(verdicts));
  appendResults("Token counting of long runs without spaces (issue 25)", {
    intro:
      "tiktoken's encode_ordinary on the whole text (the count before issue 25) against countText (lib/llm/token-count.mjs) on 30,000 characters of each kind, " +
      "and countText on 100,000 (tiktoken took 7.4 s for \"a\" × 100,000, 23.5 s for the Chinese text and 14.9 s for the rare ideographs when measured once). Medians of 3.",
    tables: [{ table }, { caption: "Checks", table: verdictTable(verdicts) }],
  });
}

runMain(main);
