// A tool server's content blocks kept for the card: bounded, validated when read back,
// and drawn as the protocol describes them.
import { describe, expect, it } from "vitest";
import { MAX_MEDIA_BYTES, MAX_PREVIEW_CHARS, MAX_RESULT_MEDIA_BYTES, readToolContent, toolContentOf } from "@/lib/mcp/content";
import { storedParts } from "@/components/timeline/mcp-content";

/** Base64 of `bytes` zero bytes. */
const base64Of = (bytes: number) => Buffer.alloc(bytes).toString("base64");

describe("toolContentOf", () => {
  it("keeps nothing beside a text-only answer: the stored text is the whole of it", () => {
    expect(toolContentOf({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] })).toBeNull();
    expect(toolContentOf({ content: [] })).toBeNull();
  });

  it("keeps an image's data up to the bound; a larger one keeps its type and size only", () => {
    const small = base64Of(1000);
    const large = base64Of(MAX_MEDIA_BYTES + 3);
    const content = toolContentOf({
      content: [
        { type: "image", mimeType: "image/png", data: small },
        { type: "image", mimeType: "image/png", data: large },
      ],
    });
    expect(content).toEqual([
      { type: "image", mimeType: "image/png", bytes: 1000, data: small },
      { type: "image", mimeType: "image/png", bytes: MAX_MEDIA_BYTES + 3, data: null },
    ]);
  });

  it("keeps the media of one answer within the total bound, in order", () => {
    const each = base64Of(MAX_MEDIA_BYTES);
    const blocks = Array.from({ length: MAX_RESULT_MEDIA_BYTES / MAX_MEDIA_BYTES + 1 }, () => ({ type: "audio" as const, mimeType: "audio/wav", data: each }));
    const content = toolContentOf({ content: blocks })!;
    expect(content.map((part) => (part.type === "audio" ? part.data !== null : null))).toEqual([true, true, true, true, false]);
  });

  it("keeps an embedded text resource's start and its length; a binary one its size", () => {
    const text = "x".repeat(MAX_PREVIEW_CHARS + 10);
    const content = toolContentOf({
      content: [
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: base64Of(10) } },
        { type: "resource_link", uri: "https://example.com/r", name: "r" },
      ],
    });
    expect(content).toEqual([
      { type: "resource", uri: "file:///a.txt", mimeType: "text/plain", text: "x".repeat(MAX_PREVIEW_CHARS), length: MAX_PREVIEW_CHARS + 10, data: null },
      { type: "resource", uri: "file:///b.bin", mimeType: null, text: null, length: 10, data: base64Of(10) },
      { type: "resource_link", uri: "https://example.com/r", name: "r", title: null, description: null, mimeType: null, size: null },
    ]);
  });
});

describe("readToolContent and storedParts", () => {
  it("a stored column that fails the schema reads as none", () => {
    expect(readToolContent(null)).toBeNull();
    expect(readToolContent([])).toBeNull();
    expect(readToolContent([{ type: "image", mimeType: "image/png", bytes: 3, data: 42 }])).toBeNull();
    expect(readToolContent({ type: "text", text: "a" })).toBeNull();
    expect(readToolContent([{ type: "text", text: "a" }])).toEqual([{ type: "text", text: "a" }]);
  });

  it("draws kept media as data URLs, withheld media with the reason, a cut resource with what is left out", () => {
    const png = base64Of(30);
    const parts = storedParts([
      { type: "image", mimeType: "image/png", bytes: 30, data: png },
      { type: "image", mimeType: "image/png", bytes: 5 * 1024 * 1024, data: null },
      { type: "image", mimeType: "image/svg+xml", bytes: 30, data: png },
      { type: "resource", uri: "file:///a.txt", mimeType: "text/plain", text: "abc", length: 1003, data: null },
      { type: "resource", uri: "file:///p.png", mimeType: "image/png", text: null, length: 30, data: png },
      { type: "resource", uri: "file:///b.bin", mimeType: null, text: null, length: 2048, data: null },
      { type: "resource_link", uri: "javascript:alert(1)", name: "n", title: "Title", description: null, mimeType: null, size: 5 },
    ]);
    expect(parts).toEqual([
      { kind: "image", src: `data:image/png;base64,${png}`, mimeType: "image/png" },
      { kind: "withheld", what: "image", mimeType: "image/png", reason: "at 5.0 MB it is too large to keep for display" },
      { kind: "withheld", what: "image", mimeType: "image/svg+xml", reason: "type image/svg+xml is not displayed" },
      { kind: "resource", uri: "file:///a.txt", mimeType: "text/plain", text: "abc\n[… 1,000 more characters: the whole text is in the stored result]" },
      { kind: "resource", uri: "file:///p.png", mimeType: "image/png", image: `data:image/png;base64,${png}` },
      { kind: "blob", uri: "file:///b.bin", mimeType: null, bytes: 2048 },
      { kind: "link", uri: "javascript:alert(1)", label: "Title", href: null, description: null, mimeType: null, size: 5 },
    ]);
  });
});
