// Message and summary text as GitHub-flavoured Markdown, sanitized. Raw HTML is shown
// as written ("List<String>", "a <div>"): people write it as text, and dropping it
// silently loses their words.
import { memo } from "react";
import ReactMarkdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";

type MdNode = { type: string; value?: string; children?: MdNode[] };

/** remark plugin: every raw-HTML node becomes a text node with the same source, so it is escaped, not stripped. */
function htmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

const remarkPlugins = [remarkGfm, htmlAsText];
const rehypePlugins = [rehypeSanitize];

/** Single newlines become hard line breaks (outside code fences), as people type them. */
export function keepLineBreaks(text: string): string {
  return text
    .split(/(```[\s\S]*?(?:```|$))/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/([^\n])\n(?!\n)/g, "$1  \n")))
    .join("");
}

export const Markdown = memo(function Markdown({
  text,
  className = "",
  breaks = false,
}: {
  text: string;
  className?: string;
  /** Keep single line breaks (user messages, summaries). */
  breaks?: boolean;
}) {
  return (
    <div className={`markdown ${className}`}>
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={{ a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" /> }}
      >
        {breaks ? keepLineBreaks(text) : text}
      </ReactMarkdown>
    </div>
  );
});
