// A tool result as the Model Context Protocol describes it: a list of content blocks
// (text, image, audio, a link to a resource, an embedded resource). A tool server's
// blocks are stored beside the result's text (lib/mcp/content.ts) and drawn from there;
// otherwise a result is read as such a list only when its text parses as one; other
// JSON is indented, anything else is shown as the text it is. Media become data URLs only when they are what they
// claim: a media type of the right family and plain base64, nothing a browser would run.
import { z } from "zod";
import { base64Bytes, type ToolContent, type ToolContentPart } from "@/lib/mcp/content";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// SVG is left out on purpose: it is markup, and a raster image cannot carry script.
const IMAGE_TYPE = /^image\/(png|jpeg|gif|webp|avif|bmp)$/;
const AUDIO_TYPE = /^audio\/(mpeg|mp3|wav|x-wav|ogg|webm|aac|flac|mp4)$/;

const textBlockSchema = z.object({ type: z.literal("text"), text: z.string() });
const mediaFields = { data: z.string(), mimeType: z.string() };
const imageBlockSchema = z.object({ type: z.literal("image"), ...mediaFields });
const audioBlockSchema = z.object({ type: z.literal("audio"), ...mediaFields });
const resourceLinkSchema = z.object({
  type: z.literal("resource_link"),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().nonnegative().optional(),
});
const resourceContentsSchema = z.union([
  z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
  z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
]);
const embeddedResourceSchema = z.object({ type: z.literal("resource"), resource: resourceContentsSchema });

const contentBlockSchema = z.discriminatedUnion("type", [
  textBlockSchema,
  imageBlockSchema,
  audioBlockSchema,
  resourceLinkSchema,
  embeddedResourceSchema,
]);
type ContentBlock = z.infer<typeof contentBlockSchema>;

// The bare list, or a whole CallToolResult (`{ content: [...], isError? }`).
const contentListSchema = z.union([
  z.array(contentBlockSchema).min(1),
  z.object({ content: z.array(contentBlockSchema).min(1), isError: z.boolean().optional() }).transform((result) => result.content),
]);

/** What the card draws: every block with what it needs already checked. */
export type ResultPart =
  | { kind: "text"; text: string }
  | { kind: "image"; src: string; mimeType: string }
  | { kind: "audio"; src: string; mimeType: string }
  /** Media that failed the check: named, not shown. */
  | { kind: "withheld"; what: "image" | "audio"; mimeType: string; reason: string }
  | { kind: "link"; uri: string; label: string; href: string | null; description: string | null; mimeType: string | null; size: number | null }
  | { kind: "resource"; uri: string; mimeType: string | null; text: string }
  | { kind: "resource"; uri: string; mimeType: string | null; image: string }
  | { kind: "blob"; uri: string; mimeType: string | null; bytes: number };

export { base64Bytes };

/** A data URL for media of an allowed type, else why not. */
export function mediaDataUrl(kind: "image" | "audio", mimeType: string, data: string): { src: string } | { reason: string } {
  const type = mimeType.trim().toLowerCase();
  if (!(kind === "image" ? IMAGE_TYPE : AUDIO_TYPE).test(type)) return { reason: `type ${mimeType || "(none)"} is not displayed` };
  const compact = data.replace(/\s+/g, "");
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) return { reason: "its data is not base64" };
  return { src: `data:${type};base64,${compact}` };
}

/** A link the browser may follow: web addresses only (a `javascript:` or `file:` URI stays text). */
export function safeHref(uri: string): string | null {
  try {
    const url = new URL(uri);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

function media(kind: "image" | "audio", mimeType: string, data: string): ResultPart {
  const url = mediaDataUrl(kind, mimeType, data);
  return "src" in url ? { kind, src: url.src, mimeType } : { kind: "withheld", what: kind, mimeType, reason: url.reason };
}

function toPart(block: ContentBlock): ResultPart {
  switch (block.type) {
    case "text":
      return { kind: "text", text: block.text };
    case "image":
    case "audio":
      return media(block.type, block.mimeType, block.data);
    case "resource_link":
      return {
        kind: "link",
        uri: block.uri,
        label: block.title ?? block.name,
        href: safeHref(block.uri),
        description: block.description ?? null,
        mimeType: block.mimeType ?? null,
        size: block.size ?? null,
      };
    case "resource": {
      const { resource } = block;
      const mimeType = resource.mimeType ?? null;
      if ("text" in resource) return { kind: "resource", uri: resource.uri, mimeType, text: resource.text };
      const image = mimeType ? mediaDataUrl("image", mimeType, resource.blob) : null;
      if (image && "src" in image) return { kind: "resource", uri: resource.uri, mimeType, image: image.src };
      return { kind: "blob", uri: resource.uri, mimeType, bytes: base64Bytes(resource.blob.replace(/\s+/g, "")) };
    }
  }
}

/** The result's parts: the MCP blocks when the text is a content list, else the text itself. */
export function resultParts(content: string): ResultPart[] {
  const trimmed = content.trimStart();
  // Only JSON that could be a list is parsed: a long plain-text result costs nothing.
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    const list = contentListSchema.safeParse(parsed);
    if (list.success) return list.data.map(toPart);
    // Other JSON reads better indented (a tool's structured answer); its text is unchanged otherwise.
    if (parsed !== null && typeof parsed === "object") return [{ kind: "text", text: JSON.stringify(parsed, null, 2) }];
  }
  return [{ kind: "text", text: content }];
}

function storedPart(part: ToolContentPart): ResultPart {
  switch (part.type) {
    case "text":
      return { kind: "text", text: part.text };
    case "image":
    case "audio":
      if (part.data === null) return { kind: "withheld", what: part.type, mimeType: part.mimeType, reason: `at ${sizeText(part.bytes)} it is too large to keep for display` };
      return media(part.type, part.mimeType, part.data);
    case "resource_link":
      return { kind: "link", uri: part.uri, label: part.title ?? part.name, href: safeHref(part.uri), description: part.description, mimeType: part.mimeType, size: part.size };
    case "resource": {
      if (part.text !== null) {
        const rest = part.length - part.text.length;
        const text = rest > 0 ? `${part.text}\n[… ${rest.toLocaleString("en-US")} more characters: the whole text is in the stored result]` : part.text;
        return { kind: "resource", uri: part.uri, mimeType: part.mimeType, text };
      }
      const image = part.data !== null && part.mimeType ? mediaDataUrl("image", part.mimeType, part.data) : null;
      if (image && "src" in image) return { kind: "resource", uri: part.uri, mimeType: part.mimeType, image: image.src };
      return { kind: "blob", uri: part.uri, mimeType: part.mimeType, bytes: part.length };
    }
  }
}

function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A tool server's stored blocks (the message's toolContent) as the card draws them. */
export function storedParts(content: ToolContent): ResultPart[] {
  return content.map(storedPart);
}

/** The result in one line, for a closed card. */
export function partsPreview(parts: readonly ResultPart[], max = 120): string {
  const words = parts.map((part) => {
    switch (part.kind) {
      case "text":
        return part.text;
      case "image":
      case "audio":
        return `[${part.kind} ${part.mimeType}]`;
      case "withheld":
        return `[${part.what} not shown]`;
      case "link":
        return `[link ${part.label}]`;
      case "resource":
        return "text" in part ? `[resource ${part.uri}] ${part.text}` : `[image ${part.uri}]`;
      case "blob":
        return `[resource ${part.uri}]`;
    }
  });
  const line = words.join(" ").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
