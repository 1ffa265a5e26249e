// Code blocks: which fences are highlighted, and what the highlighter makes of the code.
import { describe, expect, it } from "vitest";
import type { Element, ElementContent } from "hast";
import { codeLanguage } from "../../../components/ui/code-languages";
import { codeSource } from "../../../components/ui/CodeBlock";
import { highlightCode } from "../../../components/ui/highlighter";

const textOf = (nodes: ElementContent[]): string =>
  nodes.map((node) => (node.type === "text" ? node.value : node.type === "element" ? textOf(node.children) : "")).join("");
const elements = (nodes: ElementContent[]): Element[] =>
  nodes.flatMap((node) => (node.type === "element" ? [node, ...elements(node.children)] : []));

describe("codeLanguage", () => {
  it("knows languages by name and alias, in any case", () => {
    expect(codeLanguage("TypeScript")).toBe("typescript");
    expect(codeLanguage("py")).toBe("python");
    expect(codeLanguage("c++")).toBe("cpp");
    expect(codeLanguage("brainfuck")).toBeNull();
    expect(codeLanguage(undefined)).toBeNull();
  });
});

describe("codeSource", () => {
  it("reads the code and its language from the <pre> Markdown made", () => {
    const pre: Element = {
      type: "element",
      tagName: "pre",
      properties: {},
      children: [{ type: "element", tagName: "code", properties: { className: ["language-ts"] }, children: [{ type: "text", value: "const a = 1;\n" }] }],
    };
    expect(codeSource(pre)).toEqual({ code: "const a = 1;", fence: "ts", language: "typescript" });
  });
});

describe("highlightCode", () => {
  it("splits code into coloured tokens that hold the code verbatim", async () => {
    const code = 'const greeting: string = "<script>alert(1)</script>";\nfunction f() { return 1; }';
    const lines = await highlightCode(code, "typescript");
    expect(textOf(lines)).toBe(code);
    const tokens = elements(lines).filter((node) => node.tagName === "span" && String(node.properties.style ?? "").includes("--shiki-light"));
    expect(tokens.length).toBeGreaterThan(5);
    expect(new Set(tokens.map((node) => node.properties.style)).size).toBeGreaterThan(2);
    // Only spans: the code's "<script>" is text, never an element.
    expect(elements(lines).every((node) => node.tagName === "span")).toBe(true);
  });
});
