// @ts-check
// Token counts in time linear in the text, equal to tiktoken's.
//
// Plain JavaScript (types in token-count.d.mts) because the worker threads of
// ./token-pool.ts load it with Node itself, outside the Next bundle and without a
// TypeScript loader; the server code imports the same file.
//
// tiktoken splits a text with its pre-tokenizer pattern into pieces (a word with its
// leading space, up to three digits, a run of punctuation, a run of whitespace) and
// merges the bytes of each piece by rank. Its merge loop rescans the whole piece for
// the lowest rank after every merge: quadratic in the piece's length. Ordinary text
// has short pieces, but a run without spaces or punctuation — Chinese or Japanese text,
// "aaaa…", a long whitespace run — is one piece: 30,000 such characters took 0.2–2 s,
// 100,000 took 7–23 s.
//
// So tiktoken's WASM encoder gets only stretches of text whose pieces are all at most
// MAX_PIECE_CHARS long (its cost is then linear in the text), and every longer piece is
// merged here with a heap: the same merges in the same order (lowest rank first, the
// leftmost of equal ranks), in O(n log n). tiktoken merges each piece on its own, so
// the counts of the pieces add up; a stretch starts and ends where pieces do, and the
// pattern has no look-behind and one look-ahead (`\s+(?!\S)`, which sees the same
// character or the end of the stretch), so tiktoken splits a stretch as it would the
// whole text. The pre-tokenizer below is tiktoken's own pattern, written for
// JavaScript's regular expressions.
//
// Tolerance: none. Counts are tiktoken's exactly (tests/unit/llm/token-count.test.ts
// compares them on a varied corpus and on random texts with every piece merged here).
// The one way they could differ is a character whose Unicode category V8 and
// tiktoken's regex tables disagree on (one added in the newest Unicode version), inside
// a text that has a long piece. Text without a long piece goes to tiktoken whole, as
// before, so its count cannot move at all.

import { get_encoding } from "tiktoken";

/** Pieces longer than this (UTF-16 units) are merged here instead of by tiktoken. */
export const MAX_PIECE_CHARS = 128;

// Rust's regex crate reads \s as Unicode White_Space; JavaScript's \s adds U+FEFF and
// lacks U+0085, so the class is spelled out.
const WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
// (?i:'s|'t|'re|'ve|'m|'ll|'d) without regex modifiers (Node 22 lacks them). Unicode
// case folding, as Rust applies it, also folds "ſ" (U+017F) to "s".
const CONTRACTION = "(?:'(?:[sSſ]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))";
const UPPER = "\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}";
const LOWER = "\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}";
const SPACES = `[${WS}]*[\\r\\n]+|[${WS}]+(?![^${WS}])|[${WS}]+`;

/** @type {Record<import("./token-count.d.mts").EncodingName, string>} */
const PATTERNS = {
  o200k_base:
    `[^\\r\\n\\p{L}\\p{N}]?[${UPPER}]*[${LOWER}]+${CONTRACTION}?` +
    `|[^\\r\\n\\p{L}\\p{N}]?[${UPPER}]+[${LOWER}]*${CONTRACTION}?` +
    `|\\p{N}{1,3}| ?[^${WS}\\p{L}\\p{N}]+[\\r\\n/]*|${SPACES}`,
  cl100k_base: `${CONTRACTION}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^${WS}\\p{L}\\p{N}]+[\\r\\n]*|${SPACES}`,
};

/**
 * A fresh regex of the encoding's pre-tokenizer (fresh: it carries lastIndex), global
 * unless `mode` is "y" (sticky).
 */
export function pretokenizer(/** @type {import("./token-count.d.mts").EncodingName} */ encoding, mode = "g") {
  return new RegExp(PATTERNS[encoding], `${mode}u`);
}

/**
 * The number of tokens BPE makes of one piece (its UTF-8 bytes as a latin1 string,
 * one character per byte). Parts are kept as a linked list over byte offsets; the rank
 * of each adjacent pair sits in a heap keyed by (rank, offset), so the next merge is
 * tiktoken's: the lowest rank, the leftmost of equal ones. A heap entry is stale when
 * its part is gone or its pair's rank has changed since; stale entries are skipped.
 *
 * @param {string} bytes
 * @param {import("./token-count.d.mts").RankLookup} ranks
 * @param {{ lookups: number }} [stats]
 */
export function mergeCount(bytes, ranks, stats) {
  const n = bytes.length;
  if (n <= 1) return n;
  if (ranks.has(bytes)) return 1;
  const NONE = Number.MAX_SAFE_INTEGER;
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  const rankAt = new Float64Array(n);
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  let lookups = 0;
  /** Rank of the bytes from part `start` to the end of the part after the next one's start. */
  const rankOf = (/** @type {number} */ start, /** @type {number} */ end) => {
    lookups++;
    const rank = ranks.get(bytes.slice(start, end));
    return rank === undefined ? NONE : rank;
  };
  // Keys rank * (n + 1) + offset order by rank, then offset; exact below 2^53.
  const scale = n + 1;
  /** @type {number[]} */
  const heap = [];
  const push = (/** @type {number} */ key) => {
    let i = heap.length;
    heap.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = /** @type {number} */ (heap[parent]);
      if (above <= key) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = key;
  };
  const pop = () => {
    const top = /** @type {number} */ (heap[0]);
    const last = /** @type {number} */ (heap.pop());
    const size = heap.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= size) break;
        const right = left + 1;
        const child = right < size && /** @type {number} */ (heap[right]) < /** @type {number} */ (heap[left]) ? right : left;
        const below = /** @type {number} */ (heap[child]);
        if (below >= last) break;
        heap[i] = below;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  };
  for (let i = 0; i + 1 < n; i++) {
    const rank = rankOf(i, i + 2);
    rankAt[i] = rank;
    if (rank !== NONE) push(rank * scale + i);
  }
  rankAt[n - 1] = NONE;
  let parts = n;
  while (heap.length > 0) {
    const key = pop();
    const start = key % scale;
    const rank = (key - start) / scale;
    // Merged away, or its pair changed since this entry was pushed.
    if (rankAt[start] !== rank) continue;
    const removed = /** @type {number} */ (next[start]);
    const after = /** @type {number} */ (next[removed]);
    next[start] = after;
    prev[after] = start;
    rankAt[removed] = NONE;
    parts--;
    const own = after < n ? rankOf(start, /** @type {number} */ (next[after])) : NONE;
    rankAt[start] = own;
    if (own !== NONE) push(own * scale + start);
    const before = /** @type {number} */ (prev[start]);
    if (before >= 0) {
      const left = rankOf(before, after);
      rankAt[before] = left;
      if (left !== NONE) push(left * scale + before);
    }
  }
  if (stats) stats.lookups += lookups;
  return parts;
}

/**
 * Counts `text` with `encoder.ordinary` (tiktoken) for every stretch whose pieces are
 * short, and `mergeCount` for each long piece. The encoder is injectable so that a test
 * can see what reaches tiktoken.
 *
 * @param {string} text
 * @param {import("./token-count.d.mts").EncodingName} encoding
 * @param {import("./token-count.d.mts").PieceEncoder} encoder
 * @param {number} [maxPiece]
 */
export function countWith(text, encoding, encoder, maxPiece = MAX_PIECE_CHARS) {
  if (text.length <= maxPiece) return text ? encoder.ordinary(text) : 0;
  // Sticky and tested rather than exec'd: the pieces tile the text, and no match
  // array is built per piece (the scan is most of what this adds to tiktoken's time).
  const pieces = pretokenizer(encoding, "y");
  let total = 0;
  // Start of the stretch not counted yet.
  let from = 0;
  let start = 0;
  while (start < text.length) {
    if (!pieces.test(text)) {
      // Every character matches some alternative of the pattern; should one ever not,
      // it stays in the stretch that tiktoken counts, as it would be there.
      start += (text.codePointAt(start) ?? 0) > 0xffff ? 2 : 1;
      pieces.lastIndex = start;
      continue;
    }
    const end = pieces.lastIndex;
    if (end - start > maxPiece) {
      if (start > from) total += encoder.ordinary(text.slice(from, start));
      total += mergeCount(Buffer.from(text.slice(start, end), "utf8").toString("latin1"), encoder.ranks());
      from = end;
    }
    start = end;
  }
  if (from === 0) return encoder.ordinary(text);
  if (from < text.length) total += encoder.ordinary(text.slice(from));
  return total;
}

// ---- tiktoken's encoders, one per encoding and process (or worker thread) ----

const STATE_KEY = Symbol.for("strata.llm.tokenEncoders");

/**
 * @typedef {{ encoders: Map<string, import("tiktoken").Tiktoken>, ranks: Map<string, RankBuild> }} EncoderState
 */

function state() {
  // On globalThis: Next dev re-evaluates modules on hot reload and would otherwise
  // leak WASM encoders (each holds a parsed rank table).
  const holder = /** @type {Record<symbol, EncoderState | undefined>} */ (/** @type {unknown} */ (globalThis));
  let current = holder[STATE_KEY];
  if (!current) {
    current = { encoders: new Map(), ranks: new Map() };
    holder[STATE_KEY] = current;
  }
  return current;
}

/** tiktoken's encoder of `encoding`, created on first use. */
export function tiktokenEncoder(/** @type {import("./token-count.d.mts").EncodingName} */ encoding) {
  const { encoders } = state();
  let encoder = encoders.get(encoding);
  if (!encoder) {
    encoder = get_encoding(encoding);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

/**
 * @typedef {{ table: Map<string, number>, next: number, done: boolean }} RankBuild
 */

/**
 * The encoding's ranks (token bytes as latin1 → rank) as far as read, read from
 * tiktoken's own encoder so that they cannot differ from the ones it merges with.
 * Ordinary tokens are numbered from 0 without gaps; the first number that does not
 * decode is past the last one (special tokens are never merged into).
 */
function rankBuild(/** @type {import("./token-count.d.mts").EncodingName} */ encoding) {
  const { ranks } = state();
  let build = ranks.get(encoding);
  if (!build) {
    build = { table: new Map(), next: 0, done: false };
    ranks.set(encoding, build);
  }
  return build;
}

/** Reads up to `count` more ranks into `build`. */
function extend(/** @type {RankBuild} */ build, /** @type {import("./token-count.d.mts").EncodingName} */ encoding, /** @type {number} */ count) {
  const encoder = tiktokenEncoder(encoding);
  for (let read = 0; read < count && !build.done; read++) {
    let bytes;
    try {
      bytes = encoder.decode_single_token_bytes(build.next);
    } catch {
      build.done = true;
      break;
    }
    build.table.set(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1"), build.next);
    build.next++;
  }
}

/**
 * The whole rank table: about 0.2 s (more on a busy machine) and 20 MB for o200k_base
 * when it has to be read at once. A server reads it at start with warmRanks, between
 * requests; a count that needs it earlier reads the rest itself.
 */
function rankTable(/** @type {import("./token-count.d.mts").EncodingName} */ encoding) {
  const build = rankBuild(encoding);
  if (!build.done) extend(build, encoding, Number.POSITIVE_INFINITY);
  return build.table;
}

/** Reads the encoding's rank table in slices of a few milliseconds, yielding to other work between them. */
export async function warmRanks(/** @type {import("./token-count.d.mts").EncodingName} */ encoding) {
  const build = rankBuild(encoding);
  while (!build.done) {
    extend(build, encoding, 2_000);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The encoder `countWith` uses in production: tiktoken for short pieces, the rank table for long ones. */
export function defaultEncoder(/** @type {import("./token-count.d.mts").EncodingName} */ encoding) {
  const tiktoken = tiktokenEncoder(encoding);
  return {
    ordinary: (/** @type {string} */ text) => tiktoken.encode_ordinary(text).length,
    ranks: () => rankTable(encoding),
  };
}

/** Tokens of plain text ("<|endoftext|>" and the like count as text). */
export function countText(/** @type {string} */ text, /** @type {import("./token-count.d.mts").EncodingName} */ encoding) {
  if (!text) return 0;
  return countWith(text, encoding, defaultEncoder(encoding));
}
