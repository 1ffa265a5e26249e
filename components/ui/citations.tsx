"use client";
// A summary's cites ("(#12)", "(#12–#15)", "(#3, #7)") as links that open the cited
// original inside the tree. Each stretch of a cite is one link to its first message,
// an ordinary in-page anchor (`#m-12`): reachable with Tab, opened with Enter, and
// shareable; the timeline's reveal does the opening. Built as Markdown nodes before
// sanitizing, so no raw HTML is ever produced.
import { createContext, use, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from "react";
import { normalizeRanges, parseCitations, type CiteRange } from "@/lib/compression/citations";

/** Opens message `seq` in the timeline; without one, a link only changes the URL fragment (the timeline listens for it). */
export const MessageLinkContext = createContext<((seq: number) => void) | null>(null);

const MESSAGE_HREF = /^#m-(\d{1,9})$/;

export function messageSeqOfHref(href: string | undefined): number | null {
  const match = href ? MESSAGE_HREF.exec(href) : null;
  return match ? Number(match[1]) : null;
}

const rangeText = (range: CiteRange) => (range.from === range.to ? `#${range.from}` : `#${range.from}–#${range.to}`);
const rangeTitle = (range: CiteRange) => (range.from === range.to ? `Open message #${range.from}` : `Open message #${range.from}, the first of #${range.from}–#${range.to}`);

/** A link to a message of this conversation: opened in place, never in a new tab. */
export function MessageLink({ seq, children, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { seq: number; children?: ReactNode }) {
  const open = use(MessageLinkContext);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!open || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    open(seq);
  };
  return (
    <a {...props} href={`#m-${seq}`} onClick={onClick}>
      {children}
    </a>
  );
}

export const CITATION_LINK_CLASS = "font-mono text-[0.92em] text-sky-700 underline decoration-dotted underline-offset-2 hover:decoration-solid dark:text-sky-400";

/** Message numbers start at 1: a "#0" is no link. */
const linkable = (ranges: CiteRange[]) => normalizeRanges(ranges).filter((range) => range.from >= 1);

/** The links of one cite, in its canonical form. */
function CiteLinks({ parts }: { parts: CiteRange[] }) {
  return (
    <>
      (
      {parts.map((range, index) => (
        <span key={index}>
          {index > 0 ? ", " : null}
          <MessageLink seq={range.from} data-testid="citation-link" data-seq={range.from} title={rangeTitle(range)} className={CITATION_LINK_CLASS}>
            {rangeText(range)}
          </MessageLink>
        </span>
      ))}
      )
    </>
  );
}

/** Plain text (a structured summary's item, a preview line) with its cites as links. */
export function CitedText({ text }: { text: string }) {
  const cites = parseCitations(text);
  if (cites.length === 0) return <>{text}</>;
  const pieces: ReactNode[] = [];
  let at = 0;
  cites.forEach((cite, index) => {
    const parts = linkable(cite.ranges);
    if (parts.length === 0) return;
    pieces.push(text.slice(at, cite.start));
    pieces.push(<CiteLinks key={index} parts={parts} />);
    at = cite.end;
  });
  pieces.push(text.slice(at));
  return <>{pieces}</>;
}

type MdNode = { type: string; value?: string; url?: string; title?: string | null; children?: MdNode[]; data?: Record<string, unknown> };

/** A cite inside a link stays its text: links do not nest. (Code and math hold no text nodes.) */
const LEAVE = new Set(["link", "linkReference"]);

function citeNodes(text: string): MdNode[] | null {
  const cites = parseCitations(text);
  if (cites.length === 0) return null;
  const nodes: MdNode[] = [];
  let at = 0;
  for (const cite of cites) {
    const parts = linkable(cite.ranges);
    if (parts.length === 0) continue;
    nodes.push({ type: "text", value: `${text.slice(at, cite.start)}(` });
    parts.forEach((range, index) => {
      if (index > 0) nodes.push({ type: "text", value: ", " });
      nodes.push({ type: "link", url: `#m-${range.from}`, title: rangeTitle(range), children: [{ type: "text", value: rangeText(range) }] });
    });
    nodes.push({ type: "text", value: ")" });
    at = cite.end;
  }
  if (at < text.length) nodes.push({ type: "text", value: text.slice(at) });
  return nodes;
}

/** remark plugin: cites in a summary's text become links to `#m-SEQ`. */
export function remarkCitationLinks() {
  const walk = (node: MdNode) => {
    if (!node.children || LEAVE.has(node.type)) return;
    node.children = node.children.flatMap((child) => {
      if (child.type === "text" && child.value) return citeNodes(child.value) ?? [child];
      walk(child);
      return [child];
    });
  };
  return (tree: MdNode) => walk(tree);
}
