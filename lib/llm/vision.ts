// Which models take images. OpenAI-compatible servers do not say (GET /models lists
// ids only), and a server that gets an image part it cannot read answers with a 400
// only after the user has waited for it, so Strata decides before the upload:
//   1. the admin's lists (admin page: "take images" / "do not"), names or name
//      prefixes, the longest match winning and "do not" winning a tie;
//   2. otherwise the built-in guess below, from the names of well-known vision models.
// A model neither knows is treated as text-only: refusing an image up front with a
// clear message loses nothing, while sending one to a text model fails the turn.
// Learning from a server's 400 was left out on purpose: its wording differs by server,
// and a turn that failed has already cost the user the wait.
import { normalizeModelName } from "./models";

export type ImageModelLists = { imageModels: readonly string[]; textOnlyModels: readonly string[] };

export const NO_IMAGE_LISTS: ImageModelLists = { imageModels: [], textOnlyModels: [] };

/**
 * Name prefixes (normalized: no provider prefix, lower case) of models known to take
 * image input. Text-only members of these families are excluded below.
 */
const VISION_PREFIXES = [
  "gpt-4o",
  "chatgpt-4o",
  "gpt-4.1",
  "gpt-4.5",
  "gpt-4-turbo",
  "gpt-4-vision",
  "gpt-5",
  "o1",
  "o3",
  "o4",
  "claude-3",
  "claude-sonnet-4",
  "claude-opus-4",
  "claude-haiku-4",
  "gemini",
  "gemma3",
  "llava",
  "bakllava",
  "llama3.2-vision",
  "llama-3.2-11b-vision",
  "llama-3.2-90b-vision",
  "llama4",
  "llama-4",
  "qwen2-vl",
  "qwen2.5-vl",
  "qwen-vl",
  "qwen2.5vl",
  "pixtral",
  "minicpm-v",
  "moondream",
  "granite3.2-vision",
];

/** Members of those families that take text only. */
const TEXT_ONLY_PREFIXES = ["o1-mini", "o1-preview", "o3-mini", "gpt-4o-audio", "gpt-4o-realtime", "gpt-4o-mini-audio", "gpt-4o-mini-realtime"];

const longestMatch = (name: string, prefixes: readonly string[]) =>
  prefixes.reduce((best, prefix) => {
    const key = prefix.trim().toLowerCase();
    return key && (name === key || name.startsWith(key)) && key.length > best ? key.length : best;
  }, 0);

/** Whether `model` takes image parts (see the top of this file). */
export function modelTakesImages(model: string, lists: ImageModelLists = NO_IMAGE_LISTS): boolean {
  const names = [model.trim().toLowerCase(), normalizeModelName(model)];
  const yes = Math.max(...names.map((name) => longestMatch(name, lists.imageModels)));
  const no = Math.max(...names.map((name) => longestMatch(name, lists.textOnlyModels)));
  if (yes > 0 || no > 0) return yes > no;
  const name = normalizeModelName(model);
  return longestMatch(name, VISION_PREFIXES) > longestMatch(name, TEXT_ONLY_PREFIXES);
}

/** What the user reads when an image meets a model that does not take images. */
export function noImagesMessage(model: string, fileName: string): string {
  return `“${fileName}” is an image, and ${model} does not take images. Pick a model that does (e.g. gpt-4o) in the model menu, or ask the admin to mark ${model} as taking images; your message is kept.`;
}
