// Math in messages: `$x^2$` inline and `$$…$$` blocks (remark-math), typeset by KaTeX.
// KaTeX runs after rehype-sanitize, on a tree that holds nothing but what Markdown made:
// it turns each math element's text into its own markup, which escapes that text and
// (with `trust` off, the default) refuses \href, \url and \html… commands. So the
// sanitizer never has to allow KaTeX's elements and style attributes.
import type { Options as KatexOptions } from "rehype-katex";
import { lazyModule } from "./lazy-module";

type MdNode = {
  type: string;
  value?: string;
  children?: MdNode[];
  position?: { start: { offset?: number | undefined }; end: { offset?: number | undefined } } | undefined;
};

/**
 * Whether `$…$` text math is really math, by Pandoc's rule: the opening `$` is followed by
 * a non-space, the closing `$` follows a non-space and is not followed by a digit. Without
 * it "it costs $5 and $10" would typeset "5 and " as math. `$$…$$` is always math.
 * `source` is the math as written (dollars included), `next` the character after it.
 */
export function isTextMath(source: string, next: string): boolean {
  if (source.startsWith("$$")) return true;
  const inner = source.slice(1, -1);
  return inner.length > 0 && !/^\s|\s$/.test(inner) && !/^\d/.test(next);
}

/**
 * remark plugin, after remark-math: text math that fails isTextMath goes back to the text
 * it was written as. We keep single dollars as math (people write $x^2$, and models do)
 * and reject prices this way, rather than turning singleDollarTextMath off.
 */
export function remarkPricesAsText() {
  const walk = (node: MdNode, source: string) => {
    node.children?.forEach((child, index, siblings) => {
      const start = child.position?.start.offset;
      const end = child.position?.end.offset;
      if (child.type === "inlineMath" && start !== undefined && end !== undefined) {
        const written = source.slice(start, end);
        if (!isTextMath(written, source.charAt(end))) siblings[index] = { type: "text", value: written, position: child.position };
      } else walk(child, source);
    });
  };
  return (tree: MdNode, file: { value: unknown }) => walk(tree, String(file.value));
}

// rehype-katex shows math KaTeX cannot parse as its source in red.
export const KATEX_OPTIONS: KatexOptions = {
  // Model output often has Unicode inside math; KaTeX renders it, so no console noise.
  strict: "ignore",
};

type HastNode = { type: string; tagName?: string; properties?: { className?: unknown; ariaHidden?: unknown }; children?: HastNode[] };

const hasClass = (node: HastNode, name: string) => Array.isArray(node.properties?.className) && node.properties.className.includes(name);

/** The class of the box each piece of inline math is put in (app/globals.css). */
export const MATH_BOX_CLASS = "math-box";

/**
 * rehype plugin, after rehype-katex: each piece of inline math KaTeX cannot break (a
 * `katex-base`: it breaks a line only between them, after a relation or an operator) goes
 * in a box of its own, which scrolls sideways when the piece is wider than the message.
 * Without one, a long `$…$` widened the message and the whole conversation. KaTeX's own
 * elements stay as they are: the box is an inline-flex container, which keeps its
 * content's baseline even as a scroll container (an inline-block would sit on its bottom
 * edge). Display math scrolls as a whole (`.katex-display`).
 * A box that scrolls can take the keyboard's focus (scroll-regions.ts), which nothing
 * inside an aria-hidden element may: so KaTeX's drawing (`katex-html`, which screen
 * readers skip for the MathML beside it) is hidden piece by piece, inside the boxes,
 * rather than as a whole.
 */
export function rehypeMathBoxes() {
  const walk = (node: HastNode) => {
    if (hasClass(node, "katex-display")) return;
    if (hasClass(node, "katex-html") && node.children) {
      delete node.properties!.ariaHidden;
      node.children = node.children.map((child) => {
        if (child.type !== "element") return child;
        const hidden = { ...child, properties: { ...child.properties, ariaHidden: "true" } };
        return hasClass(child, "katex-base") ? { type: "element", tagName: "span", properties: { className: [MATH_BOX_CLASS] }, children: [hidden] } : hidden;
      });
      return;
    }
    node.children?.forEach(walk);
  };
  return (tree: HastNode) => walk(tree);
}

/** rehype-katex with KaTeX (≈270 KB): fetched the first time a text may hold math. */
export const katexPlugin = lazyModule(() => import("rehype-katex").then((module) => module.default));

/** Whether a text may hold math (a dollar sign, a ```math fence), so KaTeX is worth loading for it. */
export function mayHaveMath(text: string): boolean {
  return /\$|(?:```|~~~)\s*math\b/i.test(text);
}
