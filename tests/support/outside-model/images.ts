// Image parts as the outside model reads them, written without looking at the app: it
// decodes each data: URL, reads the picture's size from the bytes itself and prices it
// by its own reading of OpenAI's published vision rule. Node built-ins only.

export type SeenImage = {
  /** Index of the message in the request. */
  message: number;
  mediaType: string;
  byteLength: number;
  width: number;
  height: number;
  detail: string;
  tokens: number;
};

type Part = { type?: unknown; image_url?: { url?: unknown; detail?: unknown } | string };

/** Thrown for an image part the model cannot read (sent back as a 400). */
export class BadImage extends Error {}

function sizeOf(bytes: Buffer): { kind: string; width: number; height: number } {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return { kind: "png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length >= 10 && bytes.toString("latin1", 0, 3) === "GIF") return { kind: "gif", width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (bytes.length >= 30 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") {
    const format = bytes.toString("latin1", 12, 16);
    if (format === "VP8X") return { kind: "webp", width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
    if (format === "VP8L") {
      const bits = bytes.readUInt32LE(21);
      return { kind: "webp", width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (format === "VP8 ") return { kind: "webp", width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // Walk the segments to the first frame header.
    let offset = 2;
    while (offset + 9 < bytes.length && bytes[offset] === 0xff) {
      const marker = bytes[offset + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { kind: "jpeg", height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
      }
      offset += 2 + bytes.readUInt16BE(offset + 2);
    }
  }
  throw new BadImage("The image data is not a PNG, JPEG, GIF or WebP picture this model can read.");
}

/** Tokens an image costs: 85 at low detail; otherwise 85 + 170 per 512-px square after shrinking into 2048 and then 768 on the short side. */
export function imageCost(width: number, height: number, detail: string): number {
  if (detail === "low") return 85;
  let [w, h] = [width, height];
  const long = Math.max(w, h);
  if (long > 2048) [w, h] = [(w * 2048) / long, (h * 2048) / long];
  const short = Math.min(w, h);
  if (short > 768) [w, h] = [(w * 768) / short, (h * 768) / short];
  const across = Math.ceil(Math.floor(w) / 512);
  const down = Math.ceil(Math.floor(h) / 512);
  return 85 + 170 * across * down;
}

/** Every image part of the request, decoded and priced; a part it cannot read is a BadImage. */
export function imagesOf(messages: readonly { content?: unknown }[]): SeenImage[] {
  const seen: SeenImage[] = [];
  messages.forEach((message, index) => {
    if (!Array.isArray(message.content)) return;
    for (const raw of message.content as Part[]) {
      if (!raw || typeof raw !== "object" || raw.type !== "image_url") continue;
      const image = typeof raw.image_url === "string" ? { url: raw.image_url } : raw.image_url;
      const url = typeof image?.url === "string" ? image.url : "";
      const match = /^data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=]+)$/i.exec(url);
      if (!match) throw new BadImage("Only base64 data: URLs are accepted for images here.");
      const bytes = Buffer.from(match[2]!, "base64");
      const { width, height } = sizeOf(bytes);
      const detail = typeof image?.detail === "string" ? image.detail : "auto";
      seen.push({ message: index, mediaType: match[1]!, byteLength: bytes.length, width, height, detail, tokens: imageCost(width, height, detail) });
    }
  });
  return seen;
}
