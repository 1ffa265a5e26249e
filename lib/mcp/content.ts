// A tool server's answer as the timeline shows it: the protocol's content blocks (text,
// image, audio, a link to a resource, an embedded resource), kept beside the text the
// model reads (results.ts) in the message's toolContent column. Bounded: media over
// MAX_MEDIA_BYTES keep their type and size but not their data, an embedded text
// resource keeps a preview; the model's text holds the rest. Read back through the
// schema (a JSON column is input like any other): what fails it is shown as text.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** Largest image or audio (decoded bytes) whose data is kept for the card. */
export const MAX_MEDIA_BYTES = 1024 * 1024;
/** All the media data of one result together, decoded bytes. */
export const MAX_RESULT_MEDIA_BYTES = 4 * 1024 * 1024;
/** Characters of an embedded text resource, or of a text block, kept for the card. */
export const MAX_PREVIEW_CHARS = 4000;

const bytes = z.number().int().nonnegative();
const mediaPartSchema = { mimeType: z.string().max(200), bytes, data: z.string().nullable() };

export const toolContentPartSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("image"), ...mediaPartSchema }),
  z.object({ type: z.literal("audio"), ...mediaPartSchema }),
  z.object({
    type: z.literal("resource_link"),
    uri: z.string(),
    name: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    mimeType: z.string().nullable(),
    size: bytes.nullable(),
  }),
  z.object({
    type: z.literal("resource"),
    uri: z.string(),
    mimeType: z.string().nullable(),
    /** An embedded text resource's start; null for a binary one. */
    text: z.string().nullable(),
    /** The whole text's length, or the binary data's size in bytes. */
    length: bytes,
    /** A binary resource's data, when small enough (the card shows it if it is an image). */
    data: z.string().nullable(),
  }),
]);
export const toolContentSchema = z.array(toolContentPartSchema).min(1);

export type ToolContentPart = z.infer<typeof toolContentPartSchema>;
export type ToolContent = z.infer<typeof toolContentSchema>;

/** Bytes a base64 string decodes to, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

const preview = (text: string) => (text.length > MAX_PREVIEW_CHARS ? text.slice(0, MAX_PREVIEW_CHARS) : text);

/**
 * The blocks to store for the card, or null when there is nothing but text (the stored
 * text is then the whole answer, as the model read it). Unknown block types are left out.
 */
export function toolContentOf(result: Pick<CallToolResult, "content">): ToolContent | null {
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (blocks.every((block) => block.type === "text")) return null;
  let budget = MAX_RESULT_MEDIA_BYTES;
  // Media data is kept while it fits its bounds, in block order.
  const kept = (data: string): string | null => {
    const size = base64Bytes(data);
    if (size > MAX_MEDIA_BYTES || size > budget) return null;
    budget -= size;
    return data;
  };
  const parts: ToolContentPart[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push({ type: "text", text: preview(block.text) });
        break;
      case "image":
      case "audio":
        parts.push({ type: block.type, mimeType: block.mimeType, bytes: base64Bytes(block.data), data: kept(block.data) });
        break;
      case "resource_link":
        parts.push({
          type: "resource_link",
          uri: block.uri,
          name: block.name,
          title: block.title ?? null,
          description: block.description ?? null,
          mimeType: block.mimeType ?? null,
          size: block.size ?? null,
        });
        break;
      case "resource": {
        const { resource } = block;
        const mimeType = resource.mimeType ?? null;
        if ("text" in resource) parts.push({ type: "resource", uri: resource.uri, mimeType, text: preview(resource.text), length: resource.text.length, data: null });
        else parts.push({ type: "resource", uri: resource.uri, mimeType, text: null, length: base64Bytes(resource.blob), data: kept(resource.blob) });
        break;
      }
    }
  }
  const parsed = toolContentSchema.safeParse(parts);
  return parsed.success ? parsed.data : null;
}

/** A stored toolContent column as blocks, or null when it is empty or not of the schema. */
export function readToolContent(value: unknown): ToolContent | null {
  if (value === null || value === undefined) return null;
  const parsed = toolContentSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
