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

/**
 * The offline demo model (the in-process demo server). Small on purpose: compression shows
 * up after a few turns. Large enough for the definitions of the demo's two tool servers
 * (about 3,500 tokens as the demo counts them, JSON) to stay within their third of it.
 */
export const DEMO_MODEL = "strata-demo";
export const DEMO_CONTEXT_WINDOW = 12_288;

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

/**
 * Model name → window, looked up by exact name or longest prefix. Built once per table
 * (the built-in one, a settings object's overrides): a lookup probes one map entry per
 * distinct key length, so it costs the same with 1 override or 200.
 */
class WindowTable {
  private readonly windows = new Map<string, number>();
  private readonly lengths: number[];

  constructor(...sources: Readonly<Record<string, number>>[]) {
    // Later sources win, as in an object spread; names compare trimmed and lower-cased.
    for (const source of sources) for (const [key, value] of Object.entries(source)) this.windows.set(key.trim().toLowerCase(), value);
    // Longest first, so "gpt-4o-mini" beats "gpt-4o" and "gpt-4" comes last among the gpt-4s.
    this.lengths = [...new Set([...this.windows.keys()].map((key) => key.length))].sort((a, b) => b - a);
  }

  get empty(): boolean {
    return this.windows.size === 0;
  }

  exact(name: string): number | undefined {
    return this.windows.get(name);
  }

  longestPrefix(name: string): number | undefined {
    for (const length of this.lengths) {
      if (length > name.length) continue;
      const window = this.windows.get(name.slice(0, length));
      if (window !== undefined) return window;
    }
    return undefined;
  }
}

const BUILT_IN_TABLE = new WindowTable(CONTEXT_WINDOWS);

/** Overrides first (exact, then longest prefix, on the raw and on the normalized name), then the built-in table. */
function windowOf(model: string, overrides: WindowTable): number {
  const raw = model.trim().toLowerCase();
  const name = normalizeModelName(model);
  if (!overrides.empty) {
    const found = overrides.exact(raw) ?? overrides.exact(name) ?? overrides.longestPrefix(raw) ?? overrides.longestPrefix(name);
    if (found !== undefined) return found;
  }
  return BUILT_IN_TABLE.longestPrefix(name) ?? DEFAULT_CONTEXT_WINDOW;
}

/**
 * Tables of override objects, built on first use: settings are parsed once and read on
 * every lookup, and must not be indexed again per model (the settings page looks up
 * every overridden model).
 */
function cachedTable(cache: WeakMap<object, WindowTable>, overrides: Readonly<Record<string, number>>, build: () => WindowTable): WindowTable {
  let table = cache.get(overrides);
  if (!table) cache.set(overrides, (table = build()));
  return table;
}

const EMPTY_TABLE = new WindowTable();
const overrideTables = new WeakMap<object, WindowTable>();

/**
 * Context window of `model`. Overrides are matched first (exact, then longest
 * prefix, both on the raw and on the normalized name), then the built-in table,
 * then DEFAULT_CONTEXT_WINDOW.
 */
export function contextWindow(model: string, overrides?: Readonly<Record<string, number>>): number {
  return windowOf(model, overrides ? cachedTable(overrideTables, overrides, () => new WindowTable(overrides)) : EMPTY_TABLE);
}

/**
 * The engine's ModelCatalog: the one lookup for the engine and every view. Overrides
 * passed with a call (the settings') win over `defaults`.
 */
export function createModelCatalog(defaults: Readonly<Record<string, number>> = {}): ModelCatalog {
  const base = new WindowTable(defaults);
  const merged = new WeakMap<object, WindowTable>();
  return {
    contextWindow(model: string, overrides?: Readonly<Record<string, number>>): number {
      return windowOf(model, overrides ? cachedTable(merged, overrides, () => new WindowTable(defaults, overrides)) : base);
    },
  };
}

/** Models the demo server lists on GET /v1/models. */
export const DEMO_SERVER_MODELS = [DEMO_MODEL, "gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "gpt-3.5-turbo"] as const;

/** The built-in table as a ModelCatalog. */
export const modelCatalog: ModelCatalog = createModelCatalog();
