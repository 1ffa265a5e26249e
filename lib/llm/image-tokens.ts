// What an image costs in the prompt, by OpenAI's published rule for its vision models:
// at high detail the image is scaled to fit 2048×2048, then its shorter side to 768 px
// (never enlarged), and costs 85 tokens plus 170 per 512-px tile; at low detail 85
// whatever its size. Other servers count differently; the tokenizer factor the meter
// learns from reported usage absorbs the difference, as it does for text.

export type ImageDetail = "low" | "high";

export const IMAGE_BASE_TOKENS = 85;
export const IMAGE_TILE_TOKENS = 170;
const TILE = 512;

/** The size the model sees at high detail. */
export function scaledForHighDetail(width: number, height: number): { width: number; height: number } {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorter = Math.min(w, h);
  if (shorter > 768) {
    const scale = 768 / shorter;
    w *= scale;
    h *= scale;
  }
  return { width: Math.floor(w), height: Math.floor(h) };
}

export function imageTokens(width: number, height: number, detail: ImageDetail = "high"): number {
  if (detail === "low") return IMAGE_BASE_TOKENS;
  const scaled = scaledForHighDetail(width, height);
  const tiles = Math.ceil(scaled.width / TILE) * Math.ceil(scaled.height / TILE);
  return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * tiles;
}
