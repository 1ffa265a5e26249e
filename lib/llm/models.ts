// Context windows of common models. The compression engine's thresholds are
// fractions of these numbers, so a wrong entry means compressing too late (API
// errors) or too early (lost detail); settings.contextWindowOverrides wins for
// anything not listed or served with a different window (e.g. Ollama's num_ctx).
//
// Lookup is by longest prefix of the normalized name, so dated snapshots
// ("gpt-4o-2024-08-06"), tags ("llama3.1:8b") and provider prefixes
// ("openai/gpt-4o-mini") resolve without listing every variant.

// No tiktoken here: the settings page computes per-model figures in the browser.
import type { ModelCatalog } from "../compression/types";

/** Strips a provider prefix ("openai/gpt-4o" on OpenRouter) and lower-cases. */
export function normalizeModelName(model: string): string {
  const trimmed = model.trim().toLowerCase();
  const slash = trimmed.lastIndexOf("/");
  return slash >= 0 ? trimmed.slice(slash + 1) : trimmed;
}

/** The offline demo model (the in-process demo server). Small on purpose: compression shows up after a few turns. */
export const DEMO_MODEL = "strata-demo";
export const DEMO_CONTEXT_WINDOW = 8192;

/** Used when nothing matches: the window of today's typical chat models. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  [DEMO_MODEL]: DEMO_CONTEXT_WINDOW,
  // OpenAI
  "gpt-4o": 128_000,
  "gpt-4o-mini": 128_000,
  "chatgpt-4o": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-4.5": 128_000,
  "gpt-5": 400_000,
  "gpt-5-chat": 128_000,
  "gpt-4-turbo": 128_000,
  "gpt-4-1106": 128_000,
  "gpt-4-0125": 128_000,
  "gpt-4-32k": 32_768,
  "gpt-4": 8192,
  "gpt-3.5-turbo": 16_385,
  "gpt-3.5-turbo-instruct": 4096,
  o1: 200_000,
  "o1-mini": 128_000,
  "o1-preview": 128_000,
  o3: 200_000,
  "o3-mini": 200_000,
  "o4-mini": 200_000,
  // Open models as commonly served (Ollama / vLLM / LM Studio names)
  llama3: 8192,
  "llama-3": 8192,
  "llama3.1": 131_072,
  "llama3.2": 131_072,
  "llama3.3": 131_072,
  "llama-3.1": 131_072,
  "llama-3.2": 131_072,
  "llama-3.3": 131_072,
  llama2: 4096,
  mistral: 32_768,
  "mistral-nemo": 128_000,
  mixtral: 32_768,
  qwen2: 32_768,
  "qwen2.5": 32_768,
  qwen3: 40_960,
  gemma2: 8192,
  gemma3: 131_072,
  phi3: 4096,
  "phi3:medium-128k": 131_072,
  phi4: 16_384,
  "deepseek-r1": 131_072,
  "deepseek-chat": 65_536,
  // Anthropic / Google through OpenAI-compatible gateways (OpenRouter)
  claude: 200_000,
  gemini: 1_048_576,
};

// Longest keys first so "gpt-4o-mini" beats "gpt-4o" and "gpt-4" comes last among the gpt-4s.
const SORTED_KEYS = Object.keys(CONTEXT_WINDOWS).sort((a, b) => b.length - a.length);

function lookup(name: string, table: Readonly<Record<string, number>>, keys: readonly string[]): number | undefined {
  for (const key of keys) if (name.startsWith(key)) return table[key];
  return undefined;
}

/**
 * Context window of `model`. Overrides are matched first (exact, then longest
 * prefix, both on the raw and on the normalized name), then the built-in table,
 * then DEFAULT_CONTEXT_WINDOW.
 */
export function contextWindow(model: string, overrides?: Readonly<Record<string, number>>): number {
  const raw = model.trim().toLowerCase();
  const name = normalizeModelName(model);
  if (overrides && Object.keys(overrides).length > 0) {
    const lowered: Record<string, number> = {};
    for (const [key, value] of Object.entries(overrides)) lowered[key.trim().toLowerCase()] = value;
    const exact = lowered[raw] ?? lowered[name];
    if (exact !== undefined) return exact;
    const keys = Object.keys(lowered).sort((a, b) => b.length - a.length);
    const byPrefix = lookup(raw, lowered, keys) ?? lookup(name, lowered, keys);
    if (byPrefix !== undefined) return byPrefix;
  }
  return lookup(name, CONTEXT_WINDOWS, SORTED_KEYS) ?? DEFAULT_CONTEXT_WINDOW;
}

/** True when `model` has an entry of its own (not the default). */
export function isKnownModel(model: string): boolean {
  return lookup(normalizeModelName(model), CONTEXT_WINDOWS, SORTED_KEYS) !== undefined;
}

/**
 * The engine's ModelCatalog: the one lookup for the engine and every view. Overrides
 * passed with a call (the settings') win over `defaults`.
 */
export function createModelCatalog(defaults: Readonly<Record<string, number>> = {}): ModelCatalog {
  return {
    contextWindow(model: string, overrides?: Readonly<Record<string, number>>): number {
      return contextWindow(model, { ...defaults, ...overrides });
    },
  };
}

/** Models the demo server lists on GET /v1/models. */
export const DEMO_SERVER_MODELS = [DEMO_MODEL, "gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "gpt-3.5-turbo"] as const;

/** The built-in table as a ModelCatalog. */
export const modelCatalog: ModelCatalog = createModelCatalog();
