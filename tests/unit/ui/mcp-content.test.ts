import { describe, expect, it } from "vitest";
import { base64Bytes, mediaDataUrl, partsPreview, resultParts, safeHref } from "../../../components/timeline/mcp-content";

// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

describe("resultParts", () => {
  it("shows plain text as text", () => {
    expect(resultParts("12:00 UTC")).toEqual([{ kind: "text", text: "12:00 UTC" }]);
  });

  it("shows JSON that is not a content list as text, indented", () => {
    const time = JSON.stringify({ iso: "2026-11-27T06:00:00.000Z", timeZone: "UTC" });
    expect(resultParts(time)).toEqual([{ kind: "text", text: '{\n  "iso": "2026-11-27T06:00:00.000Z",\n  "timeZone": "UTC"\n}' }]);
    expect(resultParts("[1,2]")).toEqual([{ kind: "text", text: "[\n  1,\n  2\n]" }]);
    expect(resultParts("[]")).toEqual([{ kind: "text", text: "[]" }]);
    expect(resultParts('[{"type":"text"}]')).toEqual([{ kind: "text", text: '[\n  {\n    "type": "text"\n  }\n]' }]);
    expect(resultParts('{"broken": ')).toEqual([{ kind: "text", text: '{"broken": ' }]);
    expect(resultParts("42")).toEqual([{ kind: "text", text: "42" }]);
  });

  it("reads a content list, bare or as a whole tool result", () => {
    const list = [
      { type: "text", text: "Listed 2 files" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "resource_link", uri: "file:///notes.md", name: "notes.md", mimeType: "text/markdown", size: 120 },
      { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "alpha" } },
    ];
    const parts = resultParts(JSON.stringify(list));
    expect(parts).toEqual([
      { kind: "text", text: "Listed 2 files" },
      { kind: "image", src: `data:image/png;base64,${PNG}`, mimeType: "image/png" },
      { kind: "link", uri: "file:///notes.md", label: "notes.md", href: null, description: null, mimeType: "text/markdown", size: 120 },
      { kind: "resource", uri: "file:///a.txt", mimeType: "text/plain", text: "alpha" },
    ]);
    expect(resultParts(JSON.stringify({ content: list, isError: false }))).toEqual(parts);
  });

  it("a link's title names it; only web addresses become links", () => {
    const [part] = resultParts(JSON.stringify([{ type: "resource_link", uri: "https://example.org/a", name: "a", title: "The A" }]));
    expect(part).toMatchObject({ kind: "link", label: "The A", href: "https://example.org/a" });
  });

  it("withholds media of a type that is not allowed, or data that is not base64", () => {
    const svg = resultParts(JSON.stringify([{ type: "image", data: "PHN2Zz4=", mimeType: "image/svg+xml" }]));
    expect(svg).toEqual([{ kind: "withheld", what: "image", mimeType: "image/svg+xml", reason: "type image/svg+xml is not displayed" }]);
    const html = resultParts(JSON.stringify([{ type: "image", data: PNG, mimeType: "text/html" }]));
    expect(html[0]).toMatchObject({ kind: "withheld" });
    const injected = resultParts(JSON.stringify([{ type: "image", data: `${PNG}"onerror="alert(1)`, mimeType: "image/png" }]));
    expect(injected[0]).toMatchObject({ kind: "withheld", reason: "its data is not base64" });
  });

  it("shows audio of an audio type, and an embedded image blob as an image, other blobs by size", () => {
    const parts = resultParts(
      JSON.stringify([
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///p.png", mimeType: "image/png", blob: PNG } },
        { type: "resource", resource: { uri: "file:///x.bin", blob: "AAAAAA==" } },
      ]),
    );
    expect(parts).toEqual([
      { kind: "audio", src: "data:audio/wav;base64,AAAA", mimeType: "audio/wav" },
      { kind: "resource", uri: "file:///p.png", mimeType: "image/png", image: `data:image/png;base64,${PNG}` },
      { kind: "blob", uri: "file:///x.bin", mimeType: null, bytes: 4 },
    ]);
  });
});

describe("mediaDataUrl", () => {
  it("accepts raster images and audio, nothing else", () => {
    expect(mediaDataUrl("image", "IMAGE/PNG", "AAAA")).toEqual({ src: "data:image/png;base64,AAAA" });
    expect(mediaDataUrl("image", "audio/wav", "AAAA")).toHaveProperty("reason");
    expect(mediaDataUrl("audio", "image/png", "AAAA")).toHaveProperty("reason");
    expect(mediaDataUrl("image", "image/png", "AAA")).toHaveProperty("reason");
    expect(mediaDataUrl("image", "image/png", "")).toHaveProperty("reason");
  });
});

describe("safeHref", () => {
  it("allows http and https only", () => {
    expect(safeHref("https://example.org/x")).toBe("https://example.org/x");
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("data:text/html,hi")).toBeNull();
    expect(safeHref("not a url")).toBeNull();
  });
});

describe("base64Bytes", () => {
  it("counts decoded bytes", () => {
    expect(base64Bytes("AAAA")).toBe(3);
    expect(base64Bytes("AAAAAA==")).toBe(4);
    expect(base64Bytes("AAAAAAA=")).toBe(5);
  });
});

describe("partsPreview", () => {
  it("runs the parts together in one line", () => {
    expect(partsPreview([{ kind: "text", text: "a\n b" }, { kind: "image", src: "", mimeType: "image/png" }])).toBe("a b [image image/png]");
    expect(partsPreview([{ kind: "text", text: "x".repeat(200) }], 10)).toBe(`${"x".repeat(9)}…`);
  });
});
