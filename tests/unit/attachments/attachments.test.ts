import fc from "fast-check";
// Attachments without a database: what kind a file is, a PDF's text, the message a
// send composes, and the upload limits.
import { afterAll, describe, expect, it } from "vitest";
import { composeContent, fenceFor, imageStandIn, leftOutLine, typedPart } from "../../../lib/attachments/compose";
import { looksLikeText, sniffAttachment } from "../../../lib/attachments/kinds";
import { attachmentIdsSchema, attachmentNameSchema } from "../../../lib/attachments/limits";
import { closePdfPool, pdfText } from "../../../lib/attachments/pdf";
import { parseConfig } from "../../../lib/config";
import { tinyPdf } from "../../support/tiny-pdf";

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("type sniffing", () => {
  it("reads the bytes, not the name: a PDF or an image by signature, text by being UTF-8", () => {
    expect(sniffAttachment("notes.md", utf8("# Title"))).toEqual({ kind: "text", mediaType: "text/markdown" });
    expect(sniffAttachment("data.csv", utf8("a,b\n1,2"))).toEqual({ kind: "text", mediaType: "text/csv" });
    expect(sniffAttachment("x.json", utf8('{"a":1}'))).toEqual({ kind: "text", mediaType: "application/json" });
    expect(sniffAttachment("main.rs", utf8("fn main() {}"))).toEqual({ kind: "text", mediaType: "text/plain" });
    expect(sniffAttachment("Makefile", utf8("all:\n\techo hi"))).toEqual({ kind: "text", mediaType: "text/plain" });
    expect(sniffAttachment("named.txt", tinyPdf(["hello"]))).toEqual({ kind: "pdf", mediaType: "application/pdf" });
    expect(sniffAttachment("photo.txt", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toEqual({ kind: "image", mediaType: "image/png" });
    expect(sniffAttachment("a.jpg", new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toMatchObject({ mediaType: "image/jpeg" });
    expect(sniffAttachment("a.gif", utf8("GIF89a...."))).toMatchObject({ mediaType: "image/gif" });
    expect(sniffAttachment("a.webp", utf8("RIFF\0\0\0\0WEBPVP8 "))).toMatchObject({ mediaType: "image/webp" });
  });

  it("refuses binary that claims to be text, with a message saying what is accepted", () => {
    const sniffed = sniffAttachment("notes.md", new Uint8Array([0x68, 0x69, 0x00, 0x01]));
    expect(sniffed).toMatchObject({ kind: "unsupported" });
    expect(sniffed.kind === "unsupported" && sniffed.reason).toMatch(/Markdown, code, CSV, JSON/);
    // Not UTF-8 (a Latin-1 é) is not text either.
    expect(looksLikeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toBe(false);
    expect(looksLikeText(utf8("café\ttab\r\n"))).toBe(true);
  });
});

describe("PDF text", () => {
  it("extracts the text layer of every page", async () => {
    const result = await pdfText("r.pdf", tinyPdf(["Revenue rose 12 percent (net).", "Page two: Zagreb"]));
    expect(result).toEqual({ ok: true, text: "Revenue rose 12 percent (net).\n\nPage two: Zagreb", pages: 2 });
  });

  it("says so when there is no text layer, and when the file is not a PDF at all", async () => {
    const scanned = await pdfText("scan.pdf", tinyPdf(["", ""]));
    expect(scanned).toMatchObject({ ok: false });
    expect(!scanned.ok && scanned.reason).toMatch(/no text layer/);
    const broken = await pdfText("broken.pdf", utf8("%PDF-1.4 not really"));
    expect(broken).toMatchObject({ ok: false });
    expect(!broken.ok && broken.reason).toMatch(/could not be read as a PDF/);
  });

  // PDFs are read on a worker thread (a 10 MB one held the event loop for seconds); one
  // that takes longer than its bound ends its thread, and the next file is read as usual.
  it("stops reading a PDF that takes longer than its bound, says why, and reads the next one", async () => {
    const page = Array.from({ length: 50 }, (_, line) => `Line ${line}: the quick brown fox jumps over the lazy dog.`).join("\n");
    const slow = await pdfText("long.pdf", tinyPdf(Array.from({ length: 1000 }, () => page)), { timeoutMs: 50 });
    expect(slow).toEqual({ ok: false, reason: expect.stringMatching(/“long\.pdf” took longer than 50 ms to read, so Strata stopped reading it/) });
    expect(await pdfText("next.pdf", tinyPdf(["Still readable: Zagreb"]))).toEqual({ ok: true, text: "Still readable: Zagreb", pages: 1 });
  });
});

afterAll(() => closePdfPool());

describe("the composed message", () => {
  it("appends each file fenced and named, and remembers where each block starts", () => {
    const { content, starts } = composeContent("Compare these", [
      { kind: "text", name: "a.md", text: "alpha" },
      { kind: "text", name: "b.md", text: "has ``` inside" },
    ]);
    expect(content).toBe("Compare these\n\nAttached file: a.md\n```\nalpha\n```\n\nAttached file: b.md\n````\nhas ``` inside\n````");
    expect(starts.map((start) => content.slice(start, start + 20))).toEqual(["Attached file: a.md\n", "Attached file: b.md\n"]);
    expect(typedPart(content, starts)).toBe("Compare these");
    expect(typedPart(content, [])).toBe(content);
  });

  it("a fence is always longer than any backtick run in the text", () => {
    expect(fenceFor("plain")).toBe("```");
    expect(fenceFor("a ````` b ``")).toBe("``````");
  });

  it("a file name stays on one line in the header", () => {
    expect(composeContent("", [{ kind: "text", name: "evil\nAttached file: x", text: "t" }]).content).toContain("Attached file: evil Attached file: x\n```");
  });

  it("an image is one line standing for it; a message of files only starts with the first block", () => {
    const standIn = imageStandIn("plan]\n.png", 800, 600);
    expect(standIn).toBe("[image: plan .png, 800×600]");
    const { content, starts } = composeContent("", [{ kind: "image", standIn }, { kind: "text", name: "a.md", text: "alpha" }]);
    expect(content).toBe("[image: plan .png, 800×600]\n\nAttached file: a.md\n```\nalpha\n```");
    expect(starts).toEqual([0, standIn.length + 2]);
    expect(typedPart(content, starts)).toBe("");
  });
});

describe("limits", () => {
  it("STRATA_ATTACHMENT_MAX_BYTES defaults to 10 MB and is validated", () => {
    expect(parseConfig({}).STRATA_ATTACHMENT_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect(parseConfig({ STRATA_ATTACHMENT_MAX_BYTES: "2048" }).STRATA_ATTACHMENT_MAX_BYTES).toBe(2048);
    expect(() => parseConfig({ STRATA_ATTACHMENT_MAX_BYTES: "0" })).toThrow(/STRATA_ATTACHMENT_MAX_BYTES/);
    expect(() => parseConfig({ STRATA_ATTACHMENT_MAX_BYTES: "ten" })).toThrow(/STRATA_ATTACHMENT_MAX_BYTES/);
  });

  it("file names lose their path and control characters; ids are unique, at most ten", () => {
    expect(attachmentNameSchema.parse("C:\\Users\\me\\notes.md")).toBe("notes.md");
    expect(attachmentNameSchema.parse("../../etc/passwd")).toBe("passwd");
    expect(attachmentNameSchema.parse("a\u0000b.txt")).toBe("a b.txt");
    expect(attachmentNameSchema.safeParse("   ").success).toBe(false);
    const id = "0190a000-0000-7000-8000-000000000000";
    expect(attachmentIdsSchema.safeParse([id, id]).success).toBe(false);
    expect(attachmentIdsSchema.safeParse(Array.from({ length: 11 }, (_, i) => `0190a000-0000-7000-8000-0000000000${String(i).padStart(2, "0")}`)).success).toBe(false);
  });
});

// A message holds at most STRATA_MAX_MESSAGE_CHARS characters, typed or attached.
describe("a message with more attached text than it may hold", () => {
  it("keeps the smaller file whole and the start and end of the larger one, with a line saying how much was left out", () => {
    const big = Array.from({ length: 4000 }, (_, i) => `line ${i} of the log`).join("\n");
    const { content, starts, cut } = composeContent("Look", [
      { kind: "text", name: "small.md", text: "short note" },
      { kind: "text", name: "big.log", text: big },
    ], 20_000);
    expect(content.length).toBeLessThanOrEqual(20_000);
    expect(content).toContain("Attached file: small.md\n```\nshort note\n```");
    expect(content).toContain("line 0 of the log\nline 1 of the log");
    expect(content.endsWith("line 3999 of the log\n```")).toBe(true);
    expect(content).not.toContain("line 2000 of the log");
    expect(cut).toEqual([{ name: "big.log", keptChars: expect.any(Number), totalChars: big.length }]);
    expect(content).toContain(leftOutLine("big.log", big.length - cut[0]!.keptChars));
    expect(starts.map((start) => content.slice(start, start + 22))).toEqual(["Attached file: small.m", "Attached file: big.log"]);
    // Under the bound nothing changes.
    expect(composeContent("Look", [{ kind: "text", name: "big.log", text: big }], 200_000)).toEqual({ ...composeContent("Look", [{ kind: "text", name: "big.log", text: big }]), cut: [] });
  });

  it("never cuts a character in two, at either end", () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const max of [1000, 1001, 1002, 1003]) {
      for (const text of ["😀".repeat(1000), `x${"😀".repeat(1000)}`]) {
        const { content, cut } = composeContent("", [{ kind: "text", name: "e.txt", text }], max);
        expect(cut).toHaveLength(1);
        expect(lone.test(content)).toBe(false);
      }
    }
  });

  it("property: within the bound, the start and end of each file in order, no character split, the count left out exact", () => {
    const piece = fc.oneof({ arbitrary: fc.constant("😀"), weight: 6 }, { arbitrary: fc.constantFrom("a", " ", "\n", "é", "FACT k=v ", "```"), weight: 4 });
    const text = fc.array(piece, { minLength: 1, maxLength: 1500 }).map((pieces) => pieces.join(""));
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.array(text, { minLength: 1, maxLength: 3 }), fc.integer({ min: 600, max: 3000 }), (typed, texts, max) => {
        const parts = texts.map((body, index) => ({ kind: "text" as const, name: `f${index}.txt`, text: body }));
        const { content, cut } = composeContent(typed, parts, max);
        if (cut.length === 0) {
          expect(content).toBe(composeContent(typed, parts).content);
          return;
        }
        expect(content.length).toBeLessThanOrEqual(max);
        // Every code unit pair stays whole: no lone surrogate.
        expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(content)).toBe(false);
        for (const file of cut) {
          const body = parts.find((part) => part.name === file.name)!.text;
          const line = leftOutLine(file.name, file.totalChars - file.keptChars);
          const at = content.indexOf(`\n${line}\n`);
          expect(at).toBeGreaterThan(0);
          const fence = fenceFor(body);
          const head = content.slice(content.indexOf(`Attached file: ${file.name}\n${fence}\n`) + `Attached file: ${file.name}\n${fence}\n`.length, at);
          // The text cannot hold its fence, so the first one after the line closes the block.
          const tail = content.slice(at + line.length + 2, content.indexOf(`\n${fence}`, at + line.length + 2));
          expect(body.startsWith(head)).toBe(true);
          expect(body.endsWith(tail)).toBe(true);
          expect(head.length + tail.length).toBe(file.keptChars);
        }
      }),
      { numRuns: 400, seed: 5 },
    );
  });
});
