// Message and summary text as GitHub-flavoured Markdown, sanitized. Raw HTML is shown
// as written ("List<String>", "a <div>"): people write it as text, and dropping it
// silently loses their words.
import { memo, useRef } from "react";
import { CopyButton } from "./CopyButton";
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

/** A code block with a Copy button for its text. */
function CodeBlock({ node: _node, children, ...props }: React.ComponentProps<"pre"> & { node?: unknown }) {
  const ref = useRef<HTMLPreElement>(null);
  return (
    <div className="group/code relative">
      <pre ref={ref} {...props}>
        {children}
      </pre>
      <CopyButton
        text={() => ref.current?.innerText ?? ""}
        label="Copy the code"
        testId="copy-code"
        className="absolute top-1 right-1 bg-white/80 opacity-0 group-hover/code:opacity-100 focus:opacity-100 dark:bg-neutral-900/80"
      />
    </div>
  );
}

const COMPONENTS = {
  a: ({ node: _node, ...props }: React.ComponentProps<"a"> & { node?: unknown }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
  pre: CodeBlock,
};

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
        components={COMPONENTS}
      >
        {breaks ? keepLineBreaks(text) : text}
      </ReactMarkdown>
    </div>
  );
});
