// LaTeX delimiters as models write them are typeset; code keeps them as written.
import { beforeAll, describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Markdown } from "../../../components/ui/Markdown";
import { katexPlugin } from "../../../components/ui/math";
import { normalizeMathDelimiters } from "../../../components/ui/math-delimiters";

const render = (text: string, breaks = false) => renderToStaticMarkup(createElement(Markdown, { text, breaks }));

describe("normalizeMathDelimiters", () => {
  it("turns \\(…\\) into $…$ and a one-line \\[…\\] into $$…$$ on its own line", () => {
    expect(normalizeMathDelimiters("where \\( x^2 \\) grows")).toBe("where $x^2$ grows");
    expect(normalizeMathDelimiters("so\n\\[ E = mc^2 \\]\ndone")).toBe("so\n$$\nE = mc^2\n$$\ndone");
  });

  it("makes a multi-line \\[…\\] a math block, indented like its list item", () => {
    expect(normalizeMathDelimiters("- a:\n  \\[\n  x = 1 \\\\\n  y = 2\n  \\]\n- b")).toBe("- a:\n  $$\n  x = 1 \\\\\n  y = 2\n  $$\n- b");
    expect(normalizeMathDelimiters("then \\[\na + b\nc\n\\] and")).toBe("then \n$$\na + b\nc\n$$\n and");
    expect(normalizeMathDelimiters("then \\[\na\n\\] and")).toBe("then \n$$\na\n$$\n and");
  });

  it("makes a $$…$$ alone on its line a block, and leaves $$…$$ inside a sentence inline", () => {
    expect(normalizeMathDelimiters("$$\\int_0^1 x\\,dx$$")).toBe("$$\n\\int_0^1 x\\,dx\n$$");
    expect(normalizeMathDelimiters("> $$a+b$$")).toBe("> $$\n> a+b\n> $$");
    expect(normalizeMathDelimiters("inline $$a$$ here")).toBe("inline $$a$$ here");
  });

  it("leaves code spans, code fences, dollar math and escaped or unpaired delimiters alone", () => {
    const unchanged = [
      "`\\(x\\)` and ``a \\[b\\] c``",
      "```latex\n\\[ x \\]\n$$y$$\n```",
      "~~~\n\\(a\\)\n~~~",
      "$$\n\\begin{matrix} a \\\\[2pt] b \\end{matrix}\n$$",
      "a literal \\\\(not math\\\\)",
      "still streaming \\( x + ",
      "```\nunclosed fence \\(x\\)",
      "Markdown's escaped brackets: see \\[note\\] here",
    ];
    for (const text of unchanged) expect(normalizeMathDelimiters(text)).toBe(text);
    expect(normalizeMathDelimiters("`\\(code\\)` then \\(m\\)")).toBe("`\\(code\\)` then $m$");
  });
});

describe("LaTeX delimiters in Markdown", () => {
  beforeAll(async () => {
    await katexPlugin.load();
  });

  it("typesets \\(…\\) inline and \\[…\\] as display, keeping no stray backslash", () => {
    const html = render("Let \\(a^2 + b^2\\) be given:\n\\[\nc = \\sqrt{a^2+b^2}\n\\]\nThus.");
    expect(html.match(/class="katex"/g)).toHaveLength(2);
    expect(html.match(/katex-display/g)).toHaveLength(1);
    expect(html).not.toMatch(/>\s*\(a\^2/);
  });

  it("typesets a one-line $$…$$ as display math", () => {
    expect(render("Result:\n\n$$\\frac{1}{2}$$\n\nEnd.")).toContain("katex-display");
    expect(render("Result:\n$$\\frac{1}{2}$$", true)).toContain("katex-display");
  });

  it("keeps delimiters in code as written", () => {
    const html = render("`\\(x\\)`\n\n```\n\\[y\\]\n```");
    expect(html).toContain("\\(x\\)");
    expect(html).toContain("\\[y\\]");
    expect(html).not.toContain("katex");
  });
});
