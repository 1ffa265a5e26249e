// A tool server's answer as the text the model reads (and the result stored): text
// parts joined; an image, audio or resource as one line saying what it is (never its
// base64 in the prompt); structured content when there is nothing else; cut at a
// bound with a note saying how much was left out. The blocks themselves, for the
// timeline's card, are kept beside it (content.ts).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { base64Bytes } from "./content";

/** The most text a result keeps (a tool that returns more is cut, with a note). */
export const MAX_RESULT_CHARS = 1_000_000;

type Part = CallToolResult["content"][number];

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function partText(part: Part): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "image":
      return `[image: ${part.mimeType}, ${size(base64Bytes(part.data))}]`;
    case "audio":
      return `[audio: ${part.mimeType}, ${size(base64Bytes(part.data))}]`;
    case "resource_link":
      return `[resource link: ${part.name} ${part.uri}${part.mimeType ? ` (${part.mimeType})` : ""}]`;
    case "resource": {
      const { resource } = part;
      const kind = resource.mimeType ? `, ${resource.mimeType}` : "";
      return "text" in resource
        ? `[resource: ${resource.uri}${kind}]\n${resource.text}`
        : `[resource: ${resource.uri}${kind}, ${size(base64Bytes(resource.blob))} of binary data]`;
    }
    default:
      return `[${(part as { type: string }).type} content]`;
  }
}

export function resultText(result: CallToolResult): string {
  const parts = result.content.map(partText);
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  return parts.join("\n");
}

/** `text` within `max` characters: the head kept, a note saying what was cut. */
export function boundResult(text: string, max = MAX_RESULT_CHARS): string {
  if (text.length <= max) return text;
  let head = text.slice(0, max);
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head}\n[… result cut: ${text.length - head.length} more characters were not kept]`;
}
