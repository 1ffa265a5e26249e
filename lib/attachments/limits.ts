// Upload limits, shared by the route and the importer.
import { z } from "zod";
import { config } from "../config";
import { imageSize, type ImageSize } from "./image-size";
import type { ImageMediaType } from "./kinds";

/** STRATA_ATTACHMENT_MAX_BYTES, read per request. */
export function maxAttachmentBytes(): number {
  return config().STRATA_ATTACHMENT_MAX_BYTES;
}

/** How many files one message may carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/**
 * Pixel bounds of an image, read from its header before anything else looks at it: a
 * small file can declare a huge canvas, and a model scales anything larger down anyway.
 */
export const MAX_IMAGE_SIDE = 8192;
export const MAX_IMAGE_PIXELS = 40_000_000;

export function imageTooLargeMessage(name: string, width: number, height: number): string {
  return `“${name}” is ${width}×${height} pixels: images may be at most ${MAX_IMAGE_SIDE} pixels a side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels. Scale it down and attach it again.`;
}

/** The image's pixel size, read from its header and within the bounds; or why it is refused. */
export function boundedImageSize(name: string, mediaType: ImageMediaType, bytes: Uint8Array): { size: ImageSize } | { problem: string } {
  const size = imageSize(mediaType, bytes);
  if (!size) return { problem: `“${name}” could not be read as an image (its header is damaged or cut short).` };
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE || size.width * size.height > MAX_IMAGE_PIXELS) {
    return { problem: imageTooLargeMessage(name, size.width, size.height) };
  }
  return { size };
}

/** A file name as stored and shown: one line, no path, at most 255 characters. */
export const attachmentNameSchema = z
  .string({ message: "Give the file's name (?name=)." })
  .transform((name) => name.replace(/^.*[\\/]/, "").replace(/[\u0000-\u001f\u007f]/g, " ").trim())
  .pipe(z.string().min(1, { message: "The file has no name." }).max(255, { message: "The file name is longer than 255 characters." }));

export const attachmentIdsSchema = z
  .array(z.string().uuid({ message: "Not a valid attachment id." }))
  .max(MAX_ATTACHMENTS_PER_MESSAGE, { message: `A message carries at most ${MAX_ATTACHMENTS_PER_MESSAGE} files.` })
  .refine((ids) => new Set(ids).size === ids.length, { message: "The same file is attached twice." });
