// The pure parts of the tool-server client: model-facing names, result text, the
// per-tool check of a listed tool, and secrets kept across an edit.
import { describe, expect, it } from "vitest";
import { modelToolName } from "../../../lib/mcp/names";
import { boundResult, resultText } from "../../../lib/mcp/results";
import { checkTools } from "../../../lib/mcp/tools";
import { transportFromInput, transportInputSchema, transportView } from "../../../lib/mcp/config";

describe("modelToolName", () => {
  it("namespaces, keeps to OpenAI's alphabet and length, and never repeats a name", () => {
    const taken = new Set<string>();
    const names = [
      modelToolName("files", "read file", taken),
      modelToolName("files", "read.file", taken),
      modelToolName("files", "read_file", taken),
      modelToolName("x", "é".repeat(100), taken),
      modelToolName("x", "é".repeat(100), taken),
    ];
    expect(names.slice(0, 3)).toEqual(["files__read_file", "files__read_file_2", "files__read_file_3"]);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});

describe("resultText", () => {
  it("joins text, describes binary parts in one line, falls back to structured content", () => {
    const text = resultText({
      content: [
        { type: "text", text: "one" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "audio", data: "AAAAAA==", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "mem://a", text: "inside", mimeType: "text/plain" } },
        { type: "resource", resource: { uri: "mem://b", blob: "AAAA" } },
      ],
    });
    expect(text).toBe("one\n[image: image/png, 3 bytes]\n[audio: audio/wav, 4 bytes]\n[resource: mem://a, text/plain]\ninside\n[resource: mem://b, 3 bytes of binary data]");
    expect(resultText({ content: [], structuredContent: { sum: 5 } })).toBe('{"sum":5}');
  });

  it("cuts past the bound with a note, never inside a surrogate pair", () => {
    expect(boundResult("abc", 3)).toBe("abc");
    expect(boundResult("abcdef", 3)).toBe("abc\n[… result cut: 3 more characters were not kept]");
    expect(boundResult("ab😀cd", 3)).toBe("ab\n[… result cut: 4 more characters were not kept]");
  });
});

describe("checkTools", () => {
  it("skips a tool with an invalid definition, with the reason, and keeps the others", () => {
    const { tools, skipped } = checkTools([
      { name: "good", inputSchema: { type: "object", properties: { a: { type: "string" } } }, annotations: { readOnlyHint: true } },
      { name: "writes", description: "d", inputSchema: { type: "object" } },
      { name: "bad", inputSchema: { type: "string" } },
      { inputSchema: { type: "object" } },
    ]);
    expect(tools.map((tool) => [tool.name, tool.readOnly])).toEqual([
      ["good", true],
      ["writes", false],
    ]);
    expect(skipped.map((tool) => tool.name)).toEqual(["bad", "(unnamed)"]);
    expect(skipped[0]!.reason).toMatch(/inputSchema/);
  });
});

describe("transports", () => {
  it("an edit keeps a secret sent by name only, drops one left out, refuses a new one without a value; the view names them only", () => {
    const stored = { kind: "stdio" as const, command: "node", args: [], env: { TOKEN: "t0p", OLD: "gone" } };
    const input = transportInputSchema.parse({ kind: "stdio", command: "node", env: [{ name: "TOKEN" }, { name: "NEW", value: "n3w" }] });
    const next = transportFromInput(input, stored);
    expect(next).toEqual({ kind: "stdio", command: "node", args: [], env: { TOKEN: "t0p", NEW: "n3w" } });
    expect(JSON.stringify(transportView(next))).not.toMatch(/t0p|n3w/);
    expect(() => transportFromInput(transportInputSchema.parse({ kind: "stdio", command: "node", env: [{ name: "MISSING" }] }), stored)).toThrow(/MISSING has no value/);
    expect(transportInputSchema.safeParse({ kind: "http", url: "file:///etc/passwd" }).success).toBe(false);
  });
});
