// The streaming reader of export files: the same parts whatever the chunking (a chunk
// boundary inside a key, a string or a multi-byte character), and clear refusals of what
// cannot be an export (not JSON, cut short, unknown or repeated fields, too deep, a header
// too large).
import { describe, expect, it } from "vitest";
import { MAX_DEPTH, MAX_HEADER_CHARS, readExport, type ExportPart } from "../../lib/db/export-reader";

const doc = {
  format: "strata.conversation",
  version: 1,
  conversation: { title: "Ünïcödé ✓ 𝄞", model: "m" },
  messages: [{ seq: 1, content: "héllo 𝄞 wörld" }, { seq: 2, content: "x" }],
  compactions: [],
  attempts: [7, null],
};

async function parts(text: string, chunkBytes = 1 << 20): Promise<ExportPart[]> {
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) chunks.push(bytes.subarray(at, at + chunkBytes));
  const found: ExportPart[] = [];
  for await (const part of readExport(chunks)) found.push(part);
  return found;
}

async function refusal(text: string): Promise<string> {
  try {
    await parts(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("not refused");
}

describe("readExport", () => {
  it("yields the header fields, each item and each section's end, in file order, whatever the chunking", async () => {
    const whole = await parts(JSON.stringify(doc));
    expect(whole).toEqual([
      { type: "field", key: "format", value: "strata.conversation" },
      { type: "field", key: "version", value: 1 },
      { type: "field", key: "conversation", value: doc.conversation },
      { type: "item", section: "messages", index: 0, value: doc.messages[0] },
      { type: "item", section: "messages", index: 1, value: doc.messages[1] },
      { type: "sectionEnd", section: "messages", count: 2 },
      { type: "sectionEnd", section: "compactions", count: 0 },
      { type: "item", section: "attempts", index: 0, value: 7 },
      { type: "item", section: "attempts", index: 1, value: null },
      { type: "sectionEnd", section: "attempts", count: 2 },
    ]);
    for (const size of [1, 2, 3, 7]) expect(await parts(JSON.stringify(doc, null, 2), size)).toEqual(whole);
  });

  it("refuses what cannot be an export, saying why", async () => {
    expect(await refusal("{ nope")).toMatch(/not valid JSON/);
    expect(await refusal('{"format": "strata.conversation"')).toMatch(/ends early/);
    expect(await refusal('{"format": 1} []')).toMatch(/not valid JSON/);
    expect(await refusal("[1, 2]")).toMatch(/one JSON object/);
    expect(await refusal('{"extra": 1}')).toMatch(/Unrecognized key: "extra"/);
    expect(await refusal('{"version": 1, "version": 1}')).toMatch(/"version" appears twice/);
    expect(await refusal('{"messages": {}}')).toMatch(/messages: expected an array/);
    expect(await refusal(`{"messages": [${"[".repeat(MAX_DEPTH)}${"]".repeat(MAX_DEPTH)}]}`)).toMatch(new RegExp(`deeper than ${MAX_DEPTH} levels`));
    expect(await refusal(`{"settings": {"effective": {"a": "${"x".repeat(MAX_HEADER_CHARS)}"}}}`)).toMatch(/settings is larger than/);
  });

  it("nests up to the limit", async () => {
    const deep = `${"[".repeat(MAX_DEPTH - 2)}${"]".repeat(MAX_DEPTH - 2)}`;
    expect((await parts(`{"messages": [${deep}]}`))[0]).toMatchObject({ type: "item", index: 0 });
  });
});

describe("readExport of a bulk file (many)", () => {
  async function many(text: string, chunkBytes = 1 << 20): Promise<ExportPart[]> {
    const bytes = new TextEncoder().encode(text);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += chunkBytes) chunks.push(bytes.subarray(at, at + chunkBytes));
    const found: ExportPart[] = [];
    for await (const part of readExport(chunks, { many: true })) found.push(part);
    return found;
  }

  it("yields each conversation of an array between its docStart and docEnd, and one export as one", async () => {
    const one = await parts(JSON.stringify(doc));
    const whole = await many(JSON.stringify([doc, doc]));
    expect(whole).toEqual([{ type: "docStart", index: 0 }, ...one, { type: "docEnd", index: 0 }, { type: "docStart", index: 1 }, ...one, { type: "docEnd", index: 1 }]);
    for (const size of [1, 5]) expect(await many(JSON.stringify([doc, doc], null, 1), size)).toEqual(whole);
    expect(await many(JSON.stringify(doc))).toEqual([{ type: "docStart", index: 0 }, ...one, { type: "docEnd", index: 0 }]);
    expect(await many("[]")).toEqual([]);
  });

  it("refuses an array item that is not an export, a field repeated within one, and a cut-off array", async () => {
    const refuse = (text: string) => many(text).then(() => "not refused", (error: Error) => error.message);
    expect(await refuse("[1]")).toMatch(/item 0 of the array is not a Strata conversation export/);
    expect(await refuse('[{"version": 1}, {"version": 1, "version": 1}]')).toMatch(/"version" appears twice/);
    expect(await refuse('[{"version": 1}')).toMatch(/ends early/);
    expect(await refuse('[{"version": 1}] {}')).toMatch(/not valid JSON/);
  });
});
