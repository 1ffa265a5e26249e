// Text that looks like HTML is shown as written (escaped, never stripped), and nothing
// in a message becomes live markup.
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Markdown } from "../../../components/ui/Markdown";

const render = (text: string, breaks = false) => renderToStaticMarkup(createElement(Markdown, { text, breaks }));
const textOf = (html: string) =>
  html.replace(/<[^>]+>/g, "").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&").replaceAll("&quot;", '"');

describe("Markdown", () => {
  it("shows angle-bracket text verbatim", () => {
    const text = "use List<String> or Map<K, V>. Wrap it in a <div>";
    expect(textOf(render(text, true))).toBe(text);
    expect(textOf(render("<div>\nblock html\n</div>"))).toContain("<div>");
  });

  it("escapes markup instead of running it", () => {
    const html = render('<script>alert(1)</script> <img src=x onerror="alert(2)"> [x](javascript:alert(3))');
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(textOf(html)).toContain("<script>alert(1)</script>");
    expect(textOf(html)).toContain('<img src=x onerror="alert(2)">');
  });

  it("still renders Markdown", () => {
    expect(render("**bold** and `List<String>`")).toContain("<strong>bold</strong>");
    expect(render("`List<String>`")).toContain("<code>List&lt;String&gt;</code>");
  });
});
