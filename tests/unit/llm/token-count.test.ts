// Linear token counting (lib/llm/token-count.mjs): the counts must be tiktoken's
// exactly, and no piece longer than MAX_PIECE_CHARS may reach tiktoken's quadratic
// merge loop. No timing here: what reaches the encoder is recorded through its seam.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  countText,
  countWith,
  defaultEncoder,
  MAX_PIECE_CHARS,
  mergeCount,
  pretokenizer,
  tiktokenEncoder,
  type EncodingName,
  type PieceEncoder,
} from "@/lib/llm/token-count.mjs";
import { countTextTokens, createTokenCounter } from "@/lib/llm/tokens";

const ENCODINGS: EncodingName[] = ["o200k_base", "cl100k_base"];
const exact = (text: string, encoding: EncodingName) => tiktokenEncoder(encoding).encode_ordinary(text).length;
const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** Deterministic CJK ideographs, mostly rare ones (so tiktoken has few merges for them). */
function ideographs(length: number, seed = 1): string {
  let text = "";
  let x = seed;
  while (text.length < length) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    text += String.fromCharCode(0x4e00 + (x % 20000));
  }
  return text;
}

const ZH = "我们在这里讨论长对话的压缩方法并且希望服务器不会被一个用户阻塞所以需要线性的计数";
const JA = "これは長い会話を圧縮するためのテストですサーバーが一人のユーザーによって止まらないように";
const README = readFileSync("README.md", "utf8");
const SOURCE = readFileSync("lib/compression/manager.ts", "utf8");

/** The varied corpus: ordinary text, and every kind of long run without a break. */
const CORPUS: Record<string, string> = {
  prose: README.slice(0, 6000),
  code: SOURCE.slice(0, 6000),
  minified: repeatTo(SOURCE.replace(/\s+/g, ""), 5000),
  chinese: repeatTo(ZH, 4000),
  chinesePunctuated: repeatTo("我们在这里讨论长对话的压缩方法，并且希望服务器不会被一个用户阻塞。", 4000),
  japanese: repeatTo(JA, 4000),
  rareIdeographs: ideographs(3000),
  letters: "a".repeat(5000),
  upperLetters: "A".repeat(3000) + "b".repeat(300),
  spaces: " ".repeat(3000) + "x" + "\n".repeat(500) + "\t \t".repeat(300),
  base64: randomBytes(4000).toString("base64"),
  hex: randomBytes(2000).toString("hex"),
  emoji: "😀🎉👍🏽👨‍👩‍👧‍👦🇫🇷".repeat(300),
  punctuation: "=".repeat(2000) + "-".repeat(700) + "!?".repeat(400) + "/".repeat(300),
  mixed: repeatTo(`Zürich ${ZH} naïve café 123456 😀 ${"x".repeat(150)} it's THEY'RE ſ'ſ \u0085\ufeff ${JA}\r\n`, 6000),
  diacritics: repeatTo("e\u0301\u0302\u0303", 2000),
  special: repeatTo("<|endoftext|><|endofprompt|>", 2000),
};

/** An encoder that records what reaches tiktoken and how many rank lookups the merges make. */
function recordingEncoder(encoding: EncodingName) {
  const real = defaultEncoder(encoding);
  const record = { texts: [] as string[], lookups: 0 };
  const encoder: PieceEncoder = {
    ordinary(text) {
      record.texts.push(text);
      return real.ordinary(text);
    },
    ranks() {
      const ranks = real.ranks();
      return {
        get(bytes: string) {
          record.lookups++;
          return ranks.get(bytes);
        },
        has: (bytes: string) => ranks.has(bytes),
      };
    },
  };
  return { encoder, record };
}

function longestPiece(text: string, encoding: EncodingName): number {
  let longest = 0;
  for (const match of text.matchAll(pretokenizer(encoding))) longest = Math.max(longest, match[0].length);
  return longest;
}

describe("the pre-tokenizer", () => {
  it.each(ENCODINGS)("%s: its pieces tile the text", (encoding) => {
    for (const text of Object.values(CORPUS)) {
      expect([...text.matchAll(pretokenizer(encoding))].map((match) => match[0]).join("")).toBe(text);
    }
  });
});

describe("counts equal tiktoken's", () => {
  describe.each(ENCODINGS)("%s", (encoding) => {
    it.each(Object.keys(CORPUS))("%s", (name) => {
      const text = CORPUS[name]!;
      expect(countText(text, encoding)).toBe(exact(text, encoding));
    });

    // With a tiny piece limit nearly every piece is merged here and every stretch boundary
    // is exercised: the pre-tokenizer, the cut between stretches and the merge order must
    // all agree with tiktoken's for the counts to match.
    it("with every piece over 2 characters merged here (random texts)", () => {
      const alphabet = [..."aAbZ zß'sſtT.,!?/\n\r\t\u00a0\u0085\ufeff0123456789é\u0301我的日本語😀👍🏽=-_+", " ", "  ", "'re", "'LL"];
      const texts = fc.array(fc.constantFrom(...alphabet), { maxLength: 80 }).map((parts) => parts.join(""));
      fc.assert(
        fc.property(texts, (text) => countWith(text, encoding, defaultEncoder(encoding), 2) === exact(text, encoding)),
        { numRuns: 400, seed: 25 },
      );
    });

    it("with every piece over 2 characters merged here (the corpus)", () => {
      for (const text of Object.values(CORPUS)) {
        expect(countWith(text.slice(0, 1500), encoding, defaultEncoder(encoding), 2)).toBe(exact(text.slice(0, 1500), encoding));
      }
    });
  });

  // 100,000 characters (the default message limit) of the worst kinds, counted once with
  // tiktoken's encode_ordinary before this module existed: 7 s, 23 s and 15 s.
  it.each([
    ["a × 100,000", "a".repeat(100_000), 12_500],
    ["Chinese × 100,000", repeatTo(ZH, 100_000), 67_500],
    ["rare ideographs × 100,000", ideographs(100_000), 190_138],
  ])("%s: tiktoken's count, measured once", (_name, text, tokens) => {
    expect(countTextTokens(text)).toBe(tokens);
  });
});

describe("ordinary text is counted exactly as before", () => {
  it.each(ENCODINGS)("%s: text without a long piece goes to tiktoken whole, in one call", (encoding) => {
    for (const name of ["prose", "code", "chinesePunctuated", "base64", "hex"]) {
      const text = CORPUS[name]!;
      expect(longestPiece(text, encoding)).toBeLessThanOrEqual(MAX_PIECE_CHARS);
      const { encoder, record } = recordingEncoder(encoding);
      expect(countWith(text, encoding, encoder)).toBe(exact(text, encoding));
      expect(record.texts).toEqual([text]);
      expect(record.lookups).toBe(0);
    }
  });

  it("the engine's counter and countTextTokens agree with tiktoken on ordinary text", () => {
    const counter = createTokenCounter("gpt-4");
    expect(counter.count(CORPUS.prose!)).toBe(exact(CORPUS.prose!, "cl100k_base"));
    expect(countTextTokens(CORPUS.code!)).toBe(exact(CORPUS.code!, "o200k_base"));
  });
});

describe("linear in the text", () => {
  const hostile: Record<string, string> = {
    letters: "a".repeat(100_000),
    ideographs: ideographs(100_000),
    japanese: repeatTo(JA, 100_000),
    spaces: " ".repeat(100_000),
    mixed: repeatTo(`${ZH.repeat(20)} ${"a".repeat(500)}\n${" ".repeat(400)}x`, 100_000),
  };

  it.each(Object.keys(hostile))("%s × 100,000: tiktoken never sees a piece over the limit; the merges look up a bounded number of ranks per byte", (name) => {
    const text = hostile[name]!;
    const { encoder, record } = recordingEncoder("o200k_base");
    countWith(text, "o200k_base", encoder);
    for (const stretch of record.texts) expect(longestPiece(stretch, "o200k_base")).toBeLessThanOrEqual(MAX_PIECE_CHARS);
    // Each merge looks up at most two new pairs, after one lookup per initial pair:
    // fewer than 3 per byte. tiktoken's loop would rescan the whole piece after every merge.
    expect(record.lookups).toBeLessThan(3 * Buffer.byteLength(text));
  });

  it("mergeCount makes at most one lookup per byte plus two per merge", () => {
    const ranks = defaultEncoder("o200k_base").ranks();
    const bytes = Buffer.from(ideographs(20_000), "utf8").toString("latin1");
    const stats = { lookups: 0 };
    const tokens = mergeCount(bytes, ranks, stats);
    const merges = bytes.length - tokens;
    expect(stats.lookups).toBeLessThanOrEqual(bytes.length - 1 + 2 * merges);
  });
});
