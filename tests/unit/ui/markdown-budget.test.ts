// Markdown's parser has inputs whose cost grows much faster than their length (seconds for
// 100,000 characters, a stack overflow for 3,000 nested quotes, which left the conversation
// unable to open). Such a text is shown as written; ordinary long messages are still formatted.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "../../../components/ui/Markdown";
import { MARKDOWN_BUDGET, overMarkdownBudget } from "../../../components/ui/markdown-budget";

const render = (text: string, breaks = false) => renderToStaticMarkup(createElement(Markdown, { text, breaks }));
const lines = (count: number, line: (index: number) => string) => Array.from({ length: count }, (_, index) => line(index)).join("\n");

/** Each measured at seconds to minutes of parsing, or a stack overflow, before the budget. */
const HOSTILE: [string, string][] = [
  ["5,000 nested quotes", `${">".repeat(5_000)} x`],
  ["3,000 nested list markers", `${"- ".repeat(3_000)}x`],
  ["20,000 unmatched link ends", "x](y)".repeat(20_000)],
  ["an unfenced JSON array of 2,000 objects", JSON.stringify(Array.from({ length: 2_000 }, (_, id) => ({ id, tags: ["a", "b"] })))],
  ["alternating emphasis delimiters", `${"_*".repeat(10_000)}x${"*_".repeat(10_000)}`],
  ["2,000 lines eight lists deep", lines(2_000, () => `${"- ".repeat(8)}x`)],
  ["a list nested 300 levels by indentation", lines(300, (index) => `${" ".repeat(index * 2)}- a`)],
  ["25,000 inline formulas", "$x$ ".repeat(25_000)],
];

/** Long, but what people and models write: formatted. */
const ORDINARY: [string, string][] = [
  ["73,000 characters of prose, a link, code and two emphases a line", "Plain prose with a [link](https://x.y), `code`, *emphasis* and **bold** text. ".repeat(900)],
  ["a 300-row table", `| a | b | c |\n|---|---|---|\n${lines(300, (index) => `| ${index} | word **b** | [l](http://x) |`)}`],
  ["a 500-item list, nested three deep in places", lines(500, (index) => `${"  ".repeat(index % 3)}- item ${index} with some_snake_case words`)],
  ["a fenced 100,000-character JSON file", `Here it is:\n\n\`\`\`json\n${JSON.stringify(Array.from({ length: 2_500 }, (_, id) => ({ id, tags: ["a", "b"] })))}\n\`\`\`\n\nDone.`],
  ["a ~~~ fence holding nested quotes", `~~~\n${">".repeat(5_000)}\n~~~`],
  ["snake_case identifiers", "the value of some_long_name and other_name_here is 5. ".repeat(2_000)],
  ["200 prices", "Costs $5, $10 and $12 this year. ".repeat(200)],
];

describe("what Markdown may cost", () => {
  it.each(HOSTILE)("%s: over the budget", (_kind, text) => {
    expect(overMarkdownBudget(text)).toBe(true);
  });

  it.each(ORDINARY)("%s: within it", (_kind, text) => {
    expect(overMarkdownBudget(text)).toBe(false);
  });

  it("counts each kind up to its bound, and only outside fenced code", () => {
    expect(overMarkdownBudget("[".repeat(MARKDOWN_BUDGET.brackets))).toBe(false);
    expect(overMarkdownBudget("[".repeat(MARKDOWN_BUDGET.brackets + 1))).toBe(true);
    expect(overMarkdownBudget("*".repeat(MARKDOWN_BUDGET.emphasis + 1))).toBe(true);
    expect(overMarkdownBudget("$".repeat(MARKDOWN_BUDGET.math + 1))).toBe(true);
    expect(overMarkdownBudget(`${">".repeat(MARKDOWN_BUDGET.depth)} x`)).toBe(false);
    expect(overMarkdownBudget(`${">".repeat(MARKDOWN_BUDGET.depth + 1)} x`)).toBe(true);
    expect(overMarkdownBudget(lines(MARKDOWN_BUDGET.nesting + 1, () => "- x"))).toBe(true);
    // A fence that is never closed holds the rest of the text, as the parser reads it.
    expect(overMarkdownBudget(`\`\`\`\n${"[".repeat(10_000)}`)).toBe(false);
    // A shorter fence line does not close a longer fence.
    expect(overMarkdownBudget(`\`\`\`\`\n\`\`\`\n${"[".repeat(10_000)}\n\`\`\`\``)).toBe(false);
    expect(overMarkdownBudget(`\`\`\`\nx\n\`\`\`\n${"[".repeat(10_000)}`)).toBe(true);
  });
});

describe("a text over the budget", () => {
  it.each(HOSTILE.slice(0, 2))("%s: rendered as written, with a line saying why (it overflowed the stack before)", (_kind, text) => {
    const html = render(text, true);
    expect(html).toContain('data-as-written="true"');
    expect(html).toContain("Shown as written");
    expect(html.replaceAll("&gt;", ">")).toContain(text);
  });

  it("keeps its words and line breaks, and nothing in it becomes markup", () => {
    const text = `${"[a](javascript:alert(1)) ".repeat(1_100)}\n<script>alert(2)</script>`;
    const html = render(text);
    expect(html).toContain("Shown as written");
    expect(html).not.toMatch(/<script|href=/i);
    expect(html).toContain("\n&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain('class="whitespace-pre-wrap break-words"');
  });

  it("an ordinary text is still formatted", () => {
    const html = render(ORDINARY[0]![1]);
    expect(html).not.toContain("Shown as written");
    expect(html).toContain("<strong>bold</strong>");
  });
});
