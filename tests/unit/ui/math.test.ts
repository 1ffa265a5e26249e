// Math is typeset by KaTeX once loaded, prices stay text, and nothing inside math becomes live markup.
import { beforeAll, describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Markdown, keepLineBreaks } from "../../../components/ui/Markdown";
import { isTextMath, katexPlugin, mayHaveMath } from "../../../components/ui/math";

const render = (text: string, breaks = false) => renderToStaticMarkup(createElement(Markdown, { text, breaks }));

describe("isTextMath", () => {
  it("takes $…$ with no space inside the dollars and no digit after", () => {
    expect(isTextMath("$x^2$", " ")).toBe(true);
    expect(isTextMath("$5 and $", "1")).toBe(false);
    expect(isTextMath("$ x$", "")).toBe(false);
    expect(isTextMath("$5-$", "1")).toBe(false);
    expect(isTextMath("$a$", "5")).toBe(false);
    expect(isTextMath("$$ x $$", "")).toBe(true);
  });
});

describe("math in Markdown", () => {
  beforeAll(async () => {
    await katexPlugin.load();
  });

  it("typesets inline and block math", () => {
    const inline = render("The area is $\\pi r^2$ here.");
    expect(inline).toContain('class="katex"');
    expect(inline).not.toContain("katex-display");
    const block = render("Sum:\n\n$$\n\\sum_{i=1}^n i\n$$\n");
    expect(block).toContain("katex-display");
    expect(render("```math\na^2+b^2\n```")).toContain("katex-display");
  });

  it("leaves prices as text", () => {
    for (const text of ["it costs $5 and $10", "between $5 and $10.", "$5-$10 each", "I paid $5, she paid $10"]) {
      const html = render(text);
      expect(html, text).not.toContain("katex");
      expect(html.replace(/<[^>]+>/g, ""), text).toBe(text);
    }
  });

  it("puts each unbreakable piece of inline math in a box of its own, and display math in none", () => {
    const inline = render("Then $a = \\left(b + c\\right)$ holds.");
    // KaTeX breaks a line after "=" only: two pieces, each the only child of its box, right inside katex-html.
    // Each piece, not katex-html, is hidden from screen readers: a box that scrolls can take the focus.
    expect(inline.match(/class="katex-base"/g)).toHaveLength(2);
    expect(inline.match(/<span class="math-box"><span class="katex-base" aria-hidden="true">/g)).toHaveLength(2);
    expect(inline).toMatch(/<span class="katex-html"><span class="math-box">/);
    expect(inline).toMatch(/<\/span><\/span><span class="math-box"><span class="katex-base" aria-hidden="true">/);
    expect(render("Then $a \\newline b$.")).toMatch(/<span class="mspace katex-newline" aria-hidden="true">/);
    expect(inline).toMatch(/^<div class="markdown "><p>Then <span class="katex"><span class="katex-mathml">/);
    expect(render("Sum:\n\n$$\na = b + c\n$$\n")).not.toContain("math-box");
  });

  it("keeps markup inside math inert", () => {
    const html = render('$<img src=x onerror="alert(1)">$ and\n\n$$\n<script>alert(2)</script>\n$$\n', true);
    expect(html).not.toMatch(/<img|<script/i);
    expect(render("$\\href{javascript:alert(1)}{x}$")).not.toMatch(/href="javascript/i);
  });

  it("keeps line breaks out of math blocks", () => {
    expect(keepLineBreaks("a\nb\n$$\nx\ny\n$$")).toBe("a  \nb  \n$$\nx\ny\n$$");
    expect(keepLineBreaks("costs $$5\nand")).toBe("costs $$5  \nand");
  });

  it("loads KaTeX only for text with a dollar sign", () => {
    expect(mayHaveMath("no math here")).toBe(false);
    expect(mayHaveMath("$x$")).toBe(true);
    expect(mayHaveMath("```math\nx\n```")).toBe(true);
  });
});
