// Message and summary text as GitHub-flavoured Markdown, sanitized. Raw HTML is shown
// as written ("List<String>", "a <div>"): people write it as text, and dropping it
// silently loses their words. Code blocks are highlighted and math typeset once their
// libraries have loaded (CodeBlock.tsx, math.ts); until then both show as plain code.
import "katex/dist/katex.min.css";
import { memo, useRef } from "react";
import ReactMarkdown, { type Options } from "react-markdown";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { CITATION_LINK_CLASS, MessageLink, messageSeqOfHref, remarkCitationLinks } from "./citations";
import { CodeBlock, HighlightContext } from "./CodeBlock";
import { useLazyModule } from "./lazy-module";
import { overMarkdownBudget } from "./markdown-budget";
import { KATEX_OPTIONS, katexPlugin, mayHaveMath, rehypeMathBoxes, remarkPricesAsText } from "./math";
import { normalizeMathDelimiters } from "./math-delimiters";
import { useScrollRegions } from "./scroll-regions";

type MdNode = { type: string; value?: string; children?: MdNode[] };

/** remark plugin: every raw-HTML node becomes a text node with the same source, so it is escaped, not stripped. */
function htmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

/** The default schema, plus the classes remark-math marks math with (KaTeX looks for them after sanitizing). */
const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [["className", /^language-./, "math-inline", "math-display"]],
  },
};

const remarkPlugins: Options["remarkPlugins"] = [remarkGfm, remarkMath, remarkPricesAsText, htmlAsText];
const citingPlugins: Options["remarkPlugins"] = [...remarkPlugins, remarkCitationLinks];
const sanitize: Options["rehypePlugins"] = [[rehypeSanitize, SCHEMA]];

/** Single newlines become hard line breaks (outside code fences and math blocks), as people type them. */
export function keepLineBreaks(text: string): string {
  return text
    .split(/(```[\s\S]*?(?:```|$)|(?<![^\n])\$\$[\s\S]*?(?:\$\$|$))/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/([^\n])\n(?!\n)/g, "$1  \n")))
    .join("");
}

// A link to a message of this conversation (`#m-12`) opens it here; any other opens a new tab.
const COMPONENTS: Options["components"] = {
  a: ({ node: _node, ...props }) => {
    const seq = messageSeqOfHref(props.href);
    if (seq !== null) return <MessageLink {...props} seq={seq} />;
    return <a {...props} target="_blank" rel="noreferrer noopener" />;
  },
  pre: CodeBlock,
};

const CITING_COMPONENTS: Options["components"] = {
  ...COMPONENTS,
  a: ({ node: _node, ...props }) => {
    const seq = messageSeqOfHref(props.href);
    if (seq !== null) return <MessageLink {...props} seq={seq} data-testid="citation-link" data-seq={seq} className={CITATION_LINK_CLASS} />;
    return <a {...props} target="_blank" rel="noreferrer noopener" />;
  },
};

export const Markdown = memo(function Markdown({
  text,
  className = "",
  breaks = false,
  streaming = false,
  citations = false,
}: {
  text: string;
  className?: string;
  /** Keep single line breaks (user messages, summaries). */
  breaks?: boolean;
  /** The text is still growing: leave code plain (it is highlighted once complete). */
  streaming?: boolean;
  /** A summary's cites ("(#12)") become links that open the cited message. */
  citations?: boolean;
}) {
  const source = normalizeMathDelimiters(text);
  const asWritten = overMarkdownBudget(source);
  const katex = useLazyModule(katexPlugin, !asWritten && mayHaveMath(source));
  const body = useRef<HTMLDivElement>(null);
  useScrollRegions(body);
  if (asWritten) {
    return (
      <div ref={body} className={`markdown ${className}`} data-as-written="true">
        <p className="whitespace-pre-wrap break-words">{text}</p>
        <p className="text-[11.5px] text-neutral-600 dark:text-neutral-400">Shown as written: it has more Markdown (links, emphasis, nested lists or quotes) than Strata formats.</p>
      </div>
    );
  }
  return (
    <div ref={body} className={`markdown ${className}`}>
      <HighlightContext value={!streaming}>
        <ReactMarkdown
          remarkPlugins={citations ? citingPlugins : remarkPlugins}
          rehypePlugins={katex ? [...sanitize, [katex, KATEX_OPTIONS], rehypeMathBoxes] : sanitize}
          components={citations ? CITING_COMPONENTS : COMPONENTS}
        >
          {breaks ? keepLineBreaks(source) : source}
        </ReactMarkdown>
      </HighlightContext>
    </div>
  );
});
