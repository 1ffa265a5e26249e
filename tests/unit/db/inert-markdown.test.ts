// The Markdown export makes HTML in titles and messages text (issue 14): no raw HTML
// is left for another program to render, and what a reader sees is the text as written.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { rawHtml, shownText } from "../../support/markdown";
import { codeSpan, InertMarkdown, PARSED_DOCUMENT_CHARS, PARSED_TEXT_CHARS, plainLine } from "../../../lib/db/inert-markdown";

/** Texts made inert in order and laid out as the export does: a heading before each. */
const documentOf = (...texts: string[]) => {
  const inert = new InertMarkdown();
  return texts.map((text, index) => `#### #${index + 1}\n\n${inert.text(text)}\n`).join("\n");
};

describe("InertMarkdown", () => {
  const samples = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "Look: <b>bold</b> and <!-- a comment --> and <?php echo 1; ?>",
    '<div style="x">\nblock html\n</div>',
    "Code keeps its brackets: `Vec<T>` and\n\n```html\n<div onclick=\"x\">in a fence</div>\n```\n\n    <p>indented code</p>",
    "An autolink <https://example.com> and a < b > c comparison",
    "[link](https://example.com) **bold** &amp; entities",
  ];

  it.each(samples)("leaves no raw HTML and shows the same text: %s", (markdown) => {
    const escaped = new InertMarkdown().text(markdown);
    expect(rawHtml(escaped)).toEqual([]);
    expect(shownText(escaped)).toBe(shownText(markdown));
  });

  it("leaves code and Markdown without HTML byte for byte", () => {
    const markdown = "`a<b>` then\n\n```\n<script>x</script>\n```\n\n# Title\n\n- item <https://x.org> and a < b";
    expect(new InertMarkdown().text(markdown)).toBe(markdown);
  });

  it("stays inert when escaping changes how the rest parses (a backtick inside a tag)", () => {
    // Escaping the tag frees its backtick, which then pairs with the first backtick of
    // the code span and leaves `<b>` outside code: a second look catches it.
    const markdown = '<a title="`">x</a> and `<b>` then ` tail';
    const escaped = new InertMarkdown().text(markdown);
    expect(rawHtml(escaped)).toEqual([]);
    expect(escaped).toContain("&lt;b>");
  });

  it("escapes a text too long to parse whole, code included", () => {
    const markdown = `<script>alert(1)</script>\n\n\`\`\`\n<div>\n\`\`\`\n\n${"x".repeat(PARSED_TEXT_CHARS)}`;
    const escaped = new InertMarkdown().text(markdown);
    expect(rawHtml(escaped)).toEqual([]);
    expect(escaped).toContain("```\n&lt;div>\n```");
  });

  it("parses at most PARSED_DOCUMENT_CHARS per document, then escapes whole", () => {
    const text = `${"y".repeat(PARSED_TEXT_CHARS - 100)}\n\n\`<b>\``;
    const texts = Array.from({ length: Math.ceil(PARSED_DOCUMENT_CHARS / text.length) + 1 }, () => text);
    const document = documentOf(...texts);
    expect(rawHtml(document)).toEqual([]);
    expect(document).toContain("`<b>`");
    expect(document).toContain("`&lt;b>`");
  });

  it("closes a fence a text leaves open, so the next text's code stays code", () => {
    // Unclosed, the first text's fence would be closed by the second's opening line and
    // the second's code would be read as Markdown, its tag as HTML.
    const document = documentOf("```\n<b>open to the end", "```\n<img src=x onerror=alert(1)>\n```");
    expect(rawHtml(document)).toEqual([]);
    expect(document).toContain("<img src=x onerror=alert(1)>");
  });

  it.each([
    ["a closing fence followed by a no-break space (no closer)", "```\n<b>x\n```\u00a0"],
    ["an opening fence whose info holds U+2028 (no line end)", "```\u2028x\n<b>y"],
  ])("follows fences exactly: %s", (_, first) => {
    const document = documentOf(first, "```\n<img src=x onerror=alert(1)>\n```");
    expect(rawHtml(document)).toEqual([]);
  });

  it("escapes everything after a text whose fences it cannot follow (a fence in a list item)", () => {
    // "  ```" opens a fence in the list item; the unindented "```" ends the item and opens
    // a fence that stays open into the next text.
    const document = documentOf("- item\n  ```\n```", "```\n<img src=x onerror=alert(1)>\n```");
    expect(rawHtml(document)).toEqual([]);
  });
});

describe("InertMarkdown on generated texts", () => {
  // Pieces that change how Markdown parses: tags, code spans and fences, containers,
  // indentation, comments and line ends.
  const pieces = ["<b>", "</i>", "<div>", "<!--", "-->", "<?", "`", "``", "```", "~~~", "\n", "\r", "\n\n", "\u2028", "\u00a0", "  ", "    ", "\t", "- ", "1. ", "> ", "x", "*", "[a](<b>)"];
  const text = fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((parts) => parts.join(""));

  it("never leaves raw HTML in a document of several texts", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (texts) => {
        expect(rawHtml(documentOf(...texts))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("plainLine and codeSpan", () => {
  it("shows a title as written: HTML and entities as text, on one line", () => {
    const title = "<img src=x onerror=alert(1)> &amp;\nsecond line";
    const line = plainLine(title);
    expect(rawHtml(`# ${line}`)).toEqual([]);
    expect(shownText(`# ${line}`)).toBe("<img src=x onerror=alert(1)> &amp; second line");
  });

  it("keeps a name with backticks inside its code span", () => {
    const name = "a`<img src=x onerror=alert(1)>`\nb";
    expect(rawHtml(`Model ${codeSpan(name)} · started`)).toEqual([]);
    expect(shownText(`Model ${codeSpan(name)}`)).toBe("Model a`<img src=x onerror=alert(1)>` b");
  });
});
