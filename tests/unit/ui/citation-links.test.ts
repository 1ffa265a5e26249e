// A summary's cites render as in-page links to the cited messages, built as Markdown
// nodes (sanitized like everything else), never inside code, never as raw HTML.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CitedText } from "../../../components/ui/citations";
import { Markdown } from "../../../components/ui/Markdown";

const summary = (text: string) => renderToStaticMarkup(createElement(Markdown, { text, breaks: true, citations: true }));
const links = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((match) => `${match[1]} ${match[2]}`);

describe("citation links", () => {
  it("turns each stretch of a cite into a link to its first message", () => {
    const html = summary("Port is 8080 (#12). Moved (#12-#15), then (#3, #7).");
    expect(links(html)).toEqual(["#m-12 #12", "#m-12 #12–#15", "#m-3 #3", "#m-7 #7"]);
    expect(html).toContain('data-testid="citation-link"');
    // In place, not in a new tab.
    expect(html).not.toContain('target="_blank"');
  });

  it("leaves code, other links and a bare #n alone, and only summaries get links", () => {
    const html = summary("`(#3)` and [see (#8)](https://example.org) and PR #4 and\n```\n(#5)\n```");
    expect(links(html)).toEqual(["https://example.org see (#8)"]);
    expect(links(renderToStaticMarkup(createElement(Markdown, { text: "Port is 8080 (#12)." })))).toEqual([]);
  });

  it("a cite cannot smuggle markup in", () => {
    const html = summary('(#12)<img src=x onerror="alert(1)"> (#3)"><script>');
    expect(html).not.toMatch(/<img|<script/);
    expect(links(html)).toEqual(["#m-12 #12", "#m-3 #3"]);
  });

  it("plain text (a structured item, a preview line) gets the same links", () => {
    const html = renderToStaticMarkup(createElement(CitedText, { text: "Chose Postgres (#4–#6); see (#9)." }));
    expect(links(html)).toEqual(["#m-4 #4–#6", "#m-9 #9"]);
    expect(html.replace(/<[^>]+>/g, "")).toBe("Chose Postgres (#4–#6); see (#9).");
    // No message is numbered 0: such a cite stays text.
    const zero = renderToStaticMarkup(createElement(CitedText, { text: "Nothing (#0) here." }));
    expect(links(zero)).toEqual([]);
    expect(zero).toBe("Nothing (#0) here.");
  });
});
