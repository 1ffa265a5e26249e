// A Markdown document as a CommonMark renderer reads it, for tests of what the Markdown
// export leaves for other programs to render.
import { fromMarkdown } from "mdast-util-from-markdown";

export type MarkdownNode = { type: string; value?: string; children?: MarkdownNode[] };

/** Every node of `markdown`, in document order. */
export function markdownNodes(markdown: string): MarkdownNode[] {
  const all: MarkdownNode[] = [];
  const walk = (node: MarkdownNode) => {
    all.push(node);
    node.children?.forEach(walk);
  };
  walk(fromMarkdown(markdown) as MarkdownNode);
  return all;
}

/** The raw HTML of `markdown`. */
export const rawHtml = (markdown: string) => markdownNodes(markdown).filter((node) => node.type === "html").map((node) => node.value);

/** What a reader sees, as text: raw HTML shown as written (as Strata's own view shows it). */
export const shownText = (markdown: string) =>
  markdownNodes(markdown)
    .filter((node) => node.value !== undefined)
    .map((node) => node.value)
    .join("");
