// An image's pixel size read from its header, never by decoding it: an upload is
// bounded in pixels before anything else looks at it, and the size alone decides
// what the image costs in tokens. PNG, JPEG, GIF and WebP (lossy, lossless, extended).
import type { ImageMediaType } from "./kinds";

export type ImageSize = { width: number; height: number };

const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, at: number) => u16le(b, at) | ((b[at + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, at: number) => u16be(b, at) * 0x10000 + u16be(b, at + 2);

function png(bytes: Uint8Array): ImageSize | null {
  // The IHDR chunk comes first: its data starts at byte 16.
  if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

function gif(bytes: Uint8Array): ImageSize | null {
  return bytes.length < 10 ? null : { width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

// Start-of-frame markers carry the size; C4 (Huffman tables), C8 and CC are not frames.
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(bytes: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (SOF.has(marker)) return { height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    if (marker === 0xd9 || marker === 0xda) return null;
    at += 2 + u16be(bytes, at + 2);
  }
  return null;
}

function webp(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 30) return null;
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === "VP8X") return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  if (chunk === "VP8L") {
    const bits = (bytes[21] ?? 0) | ((bytes[22] ?? 0) << 8) | ((bytes[23] ?? 0) << 16) | ((bytes[24] ?? 0) << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8 ") return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  return null;
}

/** The image's size from its header, or null when the header is cut short or malformed. */
export function imageSize(mediaType: ImageMediaType, bytes: Uint8Array): ImageSize | null {
  const size = { "image/png": png, "image/gif": gif, "image/jpeg": jpeg, "image/webp": webp }[mediaType](bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}
