// The fenced-code languages we highlight, and the names people give them. Kept apart
// from the highlighter so that deciding whether a block is worth highlighting does not
// load it.
export const CODE_LANGUAGES = [
  "bash",
  "c",
  "cpp",
  "csharp",
  "css",
  "diff",
  "dockerfile",
  "go",
  "html",
  "java",
  "javascript",
  "json",
  "jsx",
  "kotlin",
  "php",
  "python",
  "ruby",
  "rust",
  "sql",
  "swift",
  "toml",
  "tsx",
  "typescript",
  "xml",
  "yaml",
] as const;

export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

const ALIASES: Record<string, CodeLanguage> = {
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  console: "bash",
  "c++": "cpp",
  cs: "csharp",
  "c#": "csharp",
  docker: "dockerfile",
  golang: "go",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  json5: "json",
  jsonc: "json",
  kt: "kotlin",
  py: "python",
  rb: "ruby",
  rs: "rust",
  ts: "typescript",
  mts: "typescript",
  yml: "yaml",
  patch: "diff",
  svg: "xml",
};

const KNOWN = new Set<string>(CODE_LANGUAGES);

/** The language of a fence's info word ("TS", "py", "c++"), or null when we do not highlight it. */
export function codeLanguage(name: string | undefined): CodeLanguage | null {
  if (!name) return null;
  const lower = name.toLowerCase();
  return KNOWN.has(lower) ? (lower as CodeLanguage) : (ALIASES[lower] ?? null);
}
