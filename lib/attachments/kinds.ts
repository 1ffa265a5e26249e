// What kind of file an upload is, from its bytes first and its name second: the browser's
// declared type is not trusted (a .md file arrives as "", "text/markdown" or
// "application/octet-stream" depending on the system), and a file that claims to be text
// but is binary must not be pasted into a prompt.

export type AttachmentKind =
  | { kind: "text"; mediaType: string }
  | { kind: "pdf"; mediaType: "application/pdf" }
  | { kind: "image"; mediaType: ImageMediaType };

export type ImageMediaType = "image/png" | "image/jpeg" | "image/webp" | "image/gif";

/** A stored file is an image by its sniffed media type. */
export const isImageType = (mediaType: string) => mediaType.startsWith("image/");

const TEXT_TYPES: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  text: "text/plain",
  log: "text/plain",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  jsonl: "application/x-ndjson",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  xml: "application/xml",
  html: "text/html",
  css: "text/css",
  sql: "application/sql",
};

// Source code is sent as plain text: its extension only says it is text.
const CODE_EXTENSIONS = new Set([
  "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "py", "rb", "go", "rs", "java", "kt", "kts", "scala", "c", "h",
  "cc", "cpp", "cxx", "hpp", "hh", "cs", "fs", "swift", "m", "mm", "php", "pl", "pm", "r", "lua", "sh", "bash", "zsh",
  "fish", "ps1", "bat", "ex", "exs", "erl", "hs", "ml", "mli", "clj", "cljs", "dart", "vue", "svelte", "scss", "sass",
  "less", "ini", "cfg", "conf", "env", "gradle", "cmake", "mk", "make", "dockerfile", "tf", "proto", "graphql", "gql",
  "tex", "rst", "adoc", "org", "diff", "patch", "zig", "nim", "jl", "sol", "asm", "s", "v", "sv", "vhd", "elm",
]);

const CODE_NAMES = new Set(["makefile", "dockerfile", "gemfile", "rakefile", "procfile", "license", "readme", "changelog"]);

function extensionOf(name: string): string {
  const base = name.toLowerCase();
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1);
}

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image type the bytes' signature names, if any. */
export function sniffImage(bytes: Uint8Array): ImageMediaType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

/** True when the bytes are valid UTF-8 with no NUL and few control characters: text a model can read. */
export function looksLikeText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  let control = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0) return false;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) control++;
  }
  return control <= Math.max(8, text.length / 1000);
}

export type Sniffed = AttachmentKind | { kind: "unsupported"; reason: string };

/**
 * The kind of an upload. PDF and images are recognised by their signature whatever the
 * name says; anything else must be UTF-8 text (any extension: a file without one, a
 * .log, source code), and a binary file is refused with a message that says what is accepted.
 */
export function sniffAttachment(name: string, bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, ascii("%PDF-"))) return { kind: "pdf", mediaType: "application/pdf" };
  const image = sniffImage(bytes);
  if (image) return { kind: "image", mediaType: image };
  if (!looksLikeText(bytes)) {
    return {
      kind: "unsupported",
      reason: `“${name}” is not a file Strata can read: attach text (Markdown, code, CSV, JSON, plain text), a PDF or an image (PNG, JPEG, WebP, GIF).`,
    };
  }
  const extension = extensionOf(name);
  const known = TEXT_TYPES[extension];
  if (known) return { kind: "text", mediaType: known };
  if (CODE_EXTENSIONS.has(extension) || CODE_NAMES.has(name.toLowerCase())) return { kind: "text", mediaType: "text/plain" };
  return { kind: "text", mediaType: "text/plain" };
}
