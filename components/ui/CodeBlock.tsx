// A fenced code block: plain at once, coloured when the highlighter (loaded on first
// need) has tokenized it, and never while a reply streams into it — the text changes on
// every token. Only mounted blocks are highlighted, and the timeline mounts only what is
// on screen, so a long conversation costs nothing for blocks nobody looks at.
import { Fragment, createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { jsx, jsxs } from "react/jsx-runtime";
import { toJsxRuntime } from "hast-util-to-jsx-runtime";
import type { Element, ElementContent } from "hast";
import { codeLanguage, type CodeLanguage } from "./code-languages";
import { CopyButton } from "./CopyButton";
import { lazyModule, useLazyModule } from "./lazy-module";

/** False while the text is still being written (a streaming reply). */
export const HighlightContext = createContext(true);

const highlighter = lazyModule(() => import("./highlighter"));

/** Past this a block stays plain: tokenizing it would hold up the page for little gain. */
export const MAX_HIGHLIGHT_CHARS = 20_000;

// Blocks highlighted lately: one scrolled back into view (the timeline is virtual) shows
// its colours at once instead of flashing plain.
const CACHE_SIZE = 200;
const cache = new Map<string, ReactNode>();

function remember(key: string, tokens: ReactNode) {
  cache.delete(key);
  cache.set(key, tokens);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
}

function textOf(node: ElementContent | Element): string {
  if (node.type === "text") return node.value;
  return "children" in node ? node.children.map(textOf).join("") : "";
}

/**
 * The code of a <pre><code class="language-x"> element without the newline Markdown adds,
 * the language named on its fence as written (shown) and the one it is highlighted as.
 */
export function codeSource(pre: Element | undefined): { code: string; fence: string | null; language: CodeLanguage | null } {
  const code = pre?.children.find((child): child is Element => child.type === "element" && child.tagName === "code");
  if (!code) return { code: pre ? textOf(pre) : "", fence: null, language: null };
  const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
  const fence = classes.find((name) => name.startsWith("language-"))?.slice("language-".length) ?? null;
  return { code: textOf(code).replace(/\n$/, ""), fence, language: codeLanguage(fence ?? undefined) };
}

function useHighlighted(code: string, language: CodeLanguage | null): ReactNode | null {
  const wanted = useContext(HighlightContext) && language !== null && code.length > 0 && code.length <= MAX_HIGHLIGHT_CHARS;
  const key = `${language}\u0000${code}`;
  const cached = wanted ? cache.get(key) : undefined;
  const [result, setResult] = useState<{ key: string; tokens: ReactNode } | null>(null);
  const loaded = useLazyModule(highlighter, wanted && cached === undefined);

  useEffect(() => {
    if (!loaded || !language || cache.has(key)) return;
    let live = true;
    loaded.highlightCode(code, language).then(
      (children) => {
        const tokens = toJsxRuntime({ type: "root", children }, { Fragment, jsx, jsxs });
        remember(key, tokens);
        if (live) setResult({ key, tokens });
      },
      // A grammar that fails to load leaves the block plain.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [loaded, code, language, key]);

  if (!wanted) return null;
  return cached ?? (result?.key === key ? result.tokens : null);
}

const COPY_REVEAL = "opacity-0 group-hover/code:opacity-100 group-focus-within/code:opacity-100 focus:opacity-100 [@media(hover:none)]:opacity-100";

/** A code block with a Copy button for its text (the source, whatever the colouring), under a header naming its language. */
export function CodeBlock({ node, children, ...props }: React.ComponentProps<"pre"> & { node?: Element | undefined }) {
  const { code, fence, language } = codeSource(node);
  const tokens = useHighlighted(code, language);
  const copy = (className: string) => <CopyButton text={code} label="Copy the code" testId="copy-code" className={`${COPY_REVEAL} ${className}`} />;
  return (
    <div className="group/code relative">
      {fence ? (
        <div className="code-header">
          <span data-testid="code-language" className="truncate font-mono">
            {fence}
          </span>
          {copy("")}
        </div>
      ) : null}
      <pre {...props} data-highlighted={tokens ? "true" : "false"}>
        {tokens ? <code className={`language-${language} shiki`}>{tokens}</code> : children}
      </pre>
      {fence ? null : copy("absolute top-1 right-1 bg-white/80 dark:bg-neutral-900/80")}
    </div>
  );
}
