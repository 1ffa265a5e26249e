// Reads a JSON export (./export-format.ts) as a stream of parts without ever holding the
// whole document: the header fields one by one, then every message, compaction and attempt
// as it is complete. What is held at any time is one part (the largest item) plus the
// parser's buffer, whatever the file's size. Nesting is bounded here (the tokenizer and
// the assembler keep explicit stacks, but a deep value would still cost time later).
import Assembler from "stream-json/assembler.js";
import { jsonParser, type Token } from "stream-json/parser.js";
import { AppError, MAX_INPUT_DEPTH } from "../errors.ts";

export const SECTIONS = ["messages", "compactions", "attempts"] as const;
export type Section = (typeof SECTIONS)[number];
export const HEADER_FIELDS = ["format", "version", "exportedAt", "conversation", "settings"] as const;
export type HeaderField = (typeof HEADER_FIELDS)[number];

export type ExportPart =
  | { type: "field"; key: HeaderField; value: unknown }
  | { type: "item"; section: Section; index: number; value: unknown }
  | { type: "sectionEnd"; section: Section; count: number }
  // With `many` only: where each conversation of the file starts and ends.
  | { type: "docStart"; index: number }
  | { type: "docEnd"; index: number };

/** Deepest nesting accepted anywhere in the file (an export nests 5 levels; summaries' sections a few more). */
export const MAX_DEPTH = MAX_INPUT_DEPTH;
/** Characters of the header fields together (a 100,000-character system prompt and the settings fit easily). */
export const MAX_HEADER_CHARS = 4_000_000;

const refused = (message: string) => new AppError("invalid_input", `The file cannot be imported: ${message}`);
const notJson = () => new AppError("invalid_input", "The file is not valid JSON: an export is the .json file Export gives.");

const isSection = (key: string): key is Section => (SECTIONS as readonly string[]).includes(key);
const isHeader = (key: string): key is HeaderField => (HEADER_FIELDS as readonly string[]).includes(key);

// The tokenizer's output for one chunk: a "many" wrapper of tokens, or a marker for none.
function tokensOf(result: unknown): Token[] {
  const values = (result as { values?: unknown } | null)?.values;
  return Array.isArray(values) ? (values as Token[]) : [];
}

function primitive(token: Token): { ok: true; value: unknown } | { ok: false } {
  switch (token.name) {
    case "stringValue":
      return { ok: true, value: token.value };
    case "numberValue":
      return { ok: true, value: Number(token.value) };
    case "nullValue":
      return { ok: true, value: null };
    case "trueValue":
      return { ok: true, value: true };
    case "falseValue":
      return { ok: true, value: false };
    default:
      return { ok: false };
  }
}

/**
 * The parts of an export, in file order; refuses what the format cannot be (not JSON, unknown
 * or repeated fields, too deep). With `many`, the file may also be an array of exports (the
 * bulk export, ./bulk-export.ts), and each conversation's parts come between its docStart
 * and docEnd.
 */
export async function* readExport(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options: { many?: boolean } = {}): AsyncGenerator<ExportPart> {
  // Only packed values: the chunks of long strings are not needed, only the strings.
  const tokenize = jsonParser({ streamValues: false }) as unknown as (chunk: string) => unknown;
  const decoder = new TextDecoder("utf-8");
  const seen = new Set<string>();
  let depth = 0; // open containers, the root object being 1; a section's array 2
  let rootClosed = false;
  let key: string | null = null; // the top-level field being read
  let assembler: Assembler | null = null; // the container value being built (a header field or an item)
  let valueDepth = 0; // the depth its container returns to when it closes
  let index = 0; // the next item's position in the open section
  let headerChars = 0;
  let base = 0; // the depth of the export object's container: 0 for one export, 1 inside a bulk file's array
  let docIndex = 0;

  const countHeader = (field: HeaderField, token: Token) => {
    if (token.name === "keyValue" || token.name === "stringValue" || token.name === "numberValue") headerChars += token.value.length;
    if (headerChars > MAX_HEADER_CHARS) throw refused(`${field} is larger than ${MAX_HEADER_CHARS.toLocaleString("en-US")} characters.`);
  };

  let parts: ExportPart[] = [];
  // A value is complete: a header field's, or the next item of the open section.
  const emit = (value: unknown) => {
    if (key !== null && isHeader(key)) {
      parts.push({ type: "field", key, value });
      key = null;
    } else if (key !== null && isSection(key)) {
      parts.push({ type: "item", section: key, index: index++, value });
    }
  };

  for await (const chunk of source) {
    let tokens: Token[];
    try {
      tokens = tokensOf(tokenize(decoder.decode(chunk, { stream: true })));
    } catch {
      throw notJson();
    }
    parts = [];
    for (const token of tokens) {
      const opens = token.name === "startObject" || token.name === "startArray";
      const closes = token.name === "endObject" || token.name === "endArray";
      if (rootClosed) throw notJson();
      if (depth === 0) {
        if (options.many && token.name === "startArray") {
          base = 1;
          depth = 1;
          continue;
        }
        if (token.name !== "startObject") throw refused(`the file must hold one JSON object, a Strata conversation export${options.many ? " (or an array of them)" : ""}.`);
        depth = 1;
        if (options.many) parts.push({ type: "docStart", index: docIndex });
        continue;
      }
      if (opens && depth + 1 > MAX_DEPTH + base) throw refused(`it is nested deeper than ${MAX_DEPTH} levels.`);
      // Between the conversations of a bulk file.
      if (base === 1 && depth === 1) {
        if (token.name === "endArray") {
          rootClosed = true;
          depth = 0;
          continue;
        }
        if (token.name !== "startObject") throw refused(`item ${docIndex} of the array is not a Strata conversation export (a JSON object).`);
        seen.clear();
        depth = 2;
        parts.push({ type: "docStart", index: docIndex });
        continue;
      }

      if (assembler) {
        const building: Assembler = assembler;
        building.consume(token);
        if (opens) depth++;
        if (closes) depth--;
        if (key !== null && isHeader(key)) countHeader(key, token);
        if (closes && depth === valueDepth) {
          assembler = null;
          emit(building.current);
        }
        continue;
      }

      if (depth === base + 1 && key === null) {
        if (token.name === "endObject") {
          if (options.many) parts.push({ type: "docEnd", index: docIndex++ });
          rootClosed = base === 0;
          depth = base;
          headerChars = 0;
          continue;
        }
        if (token.name !== "keyValue") throw notJson();
        if (!isHeader(token.value) && !isSection(token.value)) throw refused(`Unrecognized key: "${token.value}".`);
        if (seen.has(token.value)) throw refused(`"${token.value}" appears twice.`);
        seen.add(token.value);
        key = token.value;
        continue;
      }
      if (depth === base + 1 && key !== null && isSection(key)) {
        if (token.name !== "startArray") throw refused(`${key}: expected an array.`);
        depth = base + 2;
        index = 0;
        continue;
      }
      if (depth === base + 2 && token.name === "endArray") {
        parts.push({ type: "sectionEnd", section: key as Section, count: index });
        depth = base + 1;
        key = null;
        continue;
      }
      // A value starts: a header field's (depth 1) or an item's (depth 2).
      if (opens) {
        assembler = new Assembler();
        assembler.consume(token);
        valueDepth = depth++;
        continue;
      }
      const value = primitive(token);
      if (!value.ok) throw notJson();
      if (key !== null && isHeader(key)) countHeader(key, token);
      emit(value.value);
    }
    yield* parts;
  }
  if (!rootClosed) throw new AppError("invalid_input", "The file is not valid JSON (it ends early): an export is the .json file Export gives.");
}
