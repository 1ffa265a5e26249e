// The compression engine's public surface for the app (lib/chat, lib/llm, lib/db, UI).
export { AutoCompressionManager, type AutoCompressionManagerDeps } from "./manager";
export { COMPRESS_CONTEXT_TOOL } from "./tools";
export { PROMPT_TAGS, type PromptKind } from "./prompts";
export { buildRequest } from "./request";
export { measureTranscript, contextWindowFor, hardLimitFor, usageCorrection } from "./measure";
export { planRewind } from "./rewind";
export { renderCompactionText, renderSections } from "./render";
export { extractFacts } from "./facts";
export { slidingWindowSizes } from "./triggers";
export { STRATEGY_REGISTRY, parseSections, summarySectionsSchema } from "./strategies";
export {
  STRATEGIES,
  TRIGGER_MODES,
  DEFAULT_SETTINGS,
  compressionSettingsObject,
  compressionSettingsSchema,
  settingsFromStored,
  type CompressionSettings,
} from "./settings";
export type * from "./types";
