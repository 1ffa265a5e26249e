// Code highlighting with shiki, loaded only when a finished message shows a fenced block
// in a language we know (see lazy-module.ts). The JavaScript regex engine, not the
// Oniguruma WebAssembly one: the content security policy allows neither eval nor WASM.
// Each grammar is its own chunk, fetched the first time a block needs it.
import type { Element, ElementContent } from "hast";
import { createHighlighterCore, type HighlighterCore, type LanguageRegistration } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import githubDark from "shiki/themes/github-dark.mjs";
import githubLight from "shiki/themes/github-light.mjs";
import type { CodeLanguage } from "./code-languages";

type Grammar = () => Promise<{ default: LanguageRegistration[] }>;

const GRAMMARS: Record<CodeLanguage, Grammar> = {
  bash: () => import("shiki/langs/bash.mjs"),
  c: () => import("shiki/langs/c.mjs"),
  cpp: () => import("shiki/langs/cpp.mjs"),
  csharp: () => import("shiki/langs/csharp.mjs"),
  css: () => import("shiki/langs/css.mjs"),
  diff: () => import("shiki/langs/diff.mjs"),
  dockerfile: () => import("shiki/langs/dockerfile.mjs"),
  go: () => import("shiki/langs/go.mjs"),
  html: () => import("shiki/langs/html.mjs"),
  java: () => import("shiki/langs/java.mjs"),
  javascript: () => import("shiki/langs/javascript.mjs"),
  json: () => import("shiki/langs/json.mjs"),
  jsx: () => import("shiki/langs/jsx.mjs"),
  kotlin: () => import("shiki/langs/kotlin.mjs"),
  php: () => import("shiki/langs/php.mjs"),
  python: () => import("shiki/langs/python.mjs"),
  ruby: () => import("shiki/langs/ruby.mjs"),
  rust: () => import("shiki/langs/rust.mjs"),
  sql: () => import("shiki/langs/sql.mjs"),
  swift: () => import("shiki/langs/swift.mjs"),
  toml: () => import("shiki/langs/toml.mjs"),
  tsx: () => import("shiki/langs/tsx.mjs"),
  typescript: () => import("shiki/langs/typescript.mjs"),
  xml: () => import("shiki/langs/xml.mjs"),
  yaml: () => import("shiki/langs/yaml.mjs"),
};

let highlighter: Promise<HighlighterCore> | null = null;
const loaded = new Map<CodeLanguage, Promise<void>>();

function core(): Promise<HighlighterCore> {
  // Forgiving: a grammar pattern the engine cannot translate leaves some tokens plain
  // instead of failing the whole block.
  highlighter ??= createHighlighterCore({
    themes: [githubLight, githubDark],
    langs: [],
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  });
  return highlighter;
}

async function withLanguage(language: CodeLanguage): Promise<HighlighterCore> {
  const instance = await core();
  let grammar = loaded.get(language);
  if (!grammar) {
    grammar = GRAMMARS[language]().then((module) => instance.loadLanguage(module.default));
    loaded.set(language, grammar);
    grammar.catch(() => loaded.delete(language));
  }
  await grammar;
  return instance;
}

/**
 * The token lines of `code` as hast (the children of shiki's <code>). Colours are the
 * --shiki-light / --shiki-dark custom properties on each token; globals.css picks one
 * by colour scheme. Text nodes carry the code verbatim, so nothing in it becomes markup.
 */
export async function highlightCode(code: string, language: CodeLanguage): Promise<ElementContent[]> {
  const instance = await withLanguage(language);
  const root = instance.codeToHast(code, {
    lang: language,
    themes: { light: "github-light", dark: "github-dark" },
    defaultColor: false,
  });
  const pre = root.children.find((node): node is Element => node.type === "element");
  const codeElement = pre?.children.find((node): node is Element => node.type === "element" && node.tagName === "code");
  return codeElement?.children ?? [];
}
