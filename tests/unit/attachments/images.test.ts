// Images: the size read from each format's header, what an image costs (checked against
// the figures OpenAI publishes and against the outside model's own reading), and which
// models take them.
import { describe, expect, it } from "vitest";
import { imageSize } from "../../../lib/attachments/image-size";
import { sniffImage } from "../../../lib/attachments/kinds";
import { imageTokens } from "../../../lib/llm/image-tokens";
import { modelTakesImages } from "../../../lib/llm/vision";
import { imageCost, imagesOf } from "../../support/outside-model/images";
import { gifHeader, jpegHeader, pngHeader, tinyPng, webpHeader } from "../../support/tiny-image";

describe("image size from the header", () => {
  it.each([
    ["png", tinyPng(37, 21), 37, 21],
    ["png header", pngHeader(9000, 3), 9000, 3],
    ["jpeg", jpegHeader(640, 480), 640, 480],
    ["gif", gifHeader(33, 17), 33, 17],
    ["webp VP8X", webpHeader("VP8X", 1200, 900), 1200, 900],
    ["webp VP8L", webpHeader("VP8L", 300, 200), 300, 200],
    ["webp VP8", webpHeader("VP8 ", 320, 240), 320, 240],
  ])("%s", (_kind, bytes, width, height) => {
    const type = sniffImage(bytes);
    expect(type).not.toBeNull();
    expect(imageSize(type!, bytes)).toEqual({ width, height });
    // The outside model reads the same size by its own code.
    const [seen] = imagesOf([{ content: [{ type: "image_url", image_url: { url: `data:${type};base64,${Buffer.from(bytes).toString("base64")}` } }] }]);
    expect(seen).toMatchObject({ width, height });
  });

  it("a header cut short has no size", () => {
    expect(imageSize("image/png", pngHeader(10, 10).subarray(0, 20))).toBeNull();
    expect(imageSize("image/jpeg", jpegHeader(10, 10).subarray(0, 12))).toBeNull();
  });
});

describe("image tokens", () => {
  // OpenAI's worked examples: 1024×1024 → 765; 2048×4096 → 1105; low detail → 85.
  it.each([
    [1024, 1024, 765],
    [2048, 4096, 1105],
    [512, 512, 255],
    [100, 100, 255],
    [800, 600, 765],
  ])("%i×%i costs %i at high detail, like the outside model's count", (width, height, tokens) => {
    expect(imageTokens(width, height)).toBe(tokens);
    expect(imageCost(width, height, "high")).toBe(tokens);
  });

  it("low detail is 85 whatever the size", () => {
    expect(imageTokens(4000, 3000, "low")).toBe(85);
  });
});

describe("which models take images", () => {
  it("guesses from well-known names, provider prefixes and snapshots included", () => {
    for (const model of ["gpt-4o", "gpt-4o-mini", "openai/gpt-4.1-2025-04-14", "gpt-5", "claude-3-5-sonnet", "gemini-2.5-pro", "llava:13b", "qwen2.5-vl:7b"]) {
      expect(modelTakesImages(model), model).toBe(true);
    }
    for (const model of ["gpt-3.5-turbo", "o1-mini", "o3-mini", "llama3.1:8b", "mistral", "strata-demo", "outside-attach"]) {
      expect(modelTakesImages(model), model).toBe(false);
    }
  });

  it("the admin's lists win, the longer entry first, and 'text only' wins a tie", () => {
    const lists = { imageModels: ["outside", "local-"], textOnlyModels: ["gpt-4o", "local-"] };
    expect(modelTakesImages("outside-vision", lists)).toBe(true);
    expect(modelTakesImages("gpt-4o", lists)).toBe(false);
    expect(modelTakesImages("local-llava", lists)).toBe(false);
    expect(modelTakesImages("gpt-4o-mini", { imageModels: ["gpt-4o-mini"], textOnlyModels: ["gpt-4o"] })).toBe(true);
  });
});
