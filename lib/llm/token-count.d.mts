// Types of token-count.mjs (plain JavaScript, so that worker threads can load it without a TypeScript loader).

export type EncodingName = "o200k_base" | "cl100k_base";

/** Token bytes (a latin1 string, one character per byte) → rank. */
export type RankLookup = {
  get(bytes: string): number | undefined;
  has(bytes: string): boolean;
};

/** What countWith needs of an encoding: tiktoken's count of a stretch of short pieces, and the ranks for long ones. */
export type PieceEncoder = {
  ordinary(text: string): number;
  ranks(): RankLookup;
};

export const MAX_PIECE_CHARS: number;
export function pretokenizer(encoding: EncodingName, mode?: "g" | "y"): RegExp;
export function mergeCount(bytes: string, ranks: RankLookup, stats?: { lookups: number }): number;
export function countWith(text: string, encoding: EncodingName, encoder: PieceEncoder, maxPiece?: number): number;
export function tiktokenEncoder(encoding: EncodingName): import("tiktoken").Tiktoken;
export function defaultEncoder(encoding: EncodingName): PieceEncoder;
export function countText(text: string, encoding: EncodingName): number;
export function warmRanks(encoding: EncodingName): Promise<void>;
