// Compression settings come in three layers: the admin's defaults, a user's own values
// and a conversation's overrides. Each stored layer is partial; resolving them gives
// the one CompressionSettings snapshot the engine reads, and where each value came from.
// Pure (the browser shows sources too): lib/db/settings.ts reads and writes the layers.
import { z } from "zod";
import {
  DEFAULT_SETTINGS,
  compressionSettingsObject,
  compressionSettingsSchema,
  type CompressionSettings,
} from "./compression/settings";

export type SettingName = keyof CompressionSettings;
/** "default": built in or set by the admin; "user": the user's settings; "conversation": an override. */
export type SettingSource = "default" | "user" | "conversation";
export type SettingsLayer = Partial<CompressionSettings>;

/** What one conversation may set for itself; everything else is the user's (or the admin's). */
export const OVERRIDABLE_SETTINGS = ["threshold", "keepRecentCount", "strategy", "summaryModel", "customPrompt", "recallMode", "recallMaxTokens"] as const;
export type OverridableSetting = (typeof OVERRIDABLE_SETTINGS)[number];

export type ResolvedSettings = {
  settings: CompressionSettings;
  sources: Record<SettingName, SettingSource>;
  /** Stored values left out: they break a rule together with a lower layer's, or no longer validate on their own. */
  ignored: { name: SettingName; source: SettingSource }[];
};

// The schema's fields fill in their default when absent (unwrap() drops it): in a patch,
// absent means "unchanged".
const { threshold, keepRecentCount, strategy, summaryModel, customPrompt, recallMode, recallMaxTokens } = compressionSettingsObject.shape;

/** A conversation's overrides as a request sends them: a value sets one, null removes it. */
export const overridesPatchSchema = z.strictObject({
  threshold: threshold.unwrap().nullable().optional(),
  keepRecentCount: keepRecentCount.unwrap().nullable().optional(),
  strategy: strategy.unwrap().nullable().optional(),
  summaryModel: summaryModel.unwrap().nullable().optional(),
  customPrompt: customPrompt.unwrap().nullable().optional(),
  recallMode: recallMode.unwrap().nullable().optional(),
  recallMaxTokens: recallMaxTokens.unwrap().nullable().optional(),
});
export type OverridesPatch = z.infer<typeof overridesPatchSchema>;

const ALL_SETTINGS = Object.keys(DEFAULT_SETTINGS) as SettingName[];

export const BUILT_IN: ResolvedSettings = {
  settings: DEFAULT_SETTINGS,
  sources: Object.fromEntries(ALL_SETTINGS.map((name) => [name, "default"])) as Record<SettingName, SettingSource>,
  ignored: [],
};

/** A stored layer's fields that still validate one by one, and the names of those that no longer do. */
function readLayer(stored: unknown, allowed: readonly SettingName[]): { layer: SettingsLayer; unfit: SettingName[] } {
  const layer: Record<string, unknown> = {};
  const unfit: SettingName[] = [];
  if (!stored || typeof stored !== "object" || Array.isArray(stored)) return { layer, unfit };
  for (const [name, value] of Object.entries(stored)) {
    if (!allowed.includes(name as SettingName)) continue;
    const parsed = compressionSettingsObject.shape[name as SettingName].safeParse(value);
    if (parsed.success) layer[name] = parsed.data;
    else unfit.push(name as SettingName);
  }
  return { layer: layer as SettingsLayer, unfit };
}

/** The fields of a stored layer that still validate one by one (a layer may predate a schema change or a new bound). */
export function storedLayer(stored: unknown, allowed: readonly SettingName[] = ALL_SETTINGS): SettingsLayer {
  return readLayer(stored, allowed).layer;
}

function pick(layer: SettingsLayer, names: Iterable<SettingName>): SettingsLayer {
  return Object.fromEntries([...names].map((name) => [name, layer[name]]));
}

function parseOver(base: CompressionSettings, layer: SettingsLayer) {
  return compressionSettingsSchema.safeParse({ ...base, ...layer });
}

/** `layer` over `base`, or the rule violations it causes. */
export function overlayStrict(
  base: ResolvedSettings,
  layer: SettingsLayer,
  source: SettingSource,
): { ok: true; resolved: ResolvedSettings } | { ok: false; error: z.ZodError } {
  const result = parseOver(base.settings, layer);
  if (!result.success) return { ok: false, error: result.error };
  const sources = { ...base.sources };
  for (const name of Object.keys(layer) as SettingName[]) sources[name] = source;
  return { ok: true, resolved: { settings: result.data, sources, ignored: base.ignored } };
}

/**
 * `layer` over `base`, leaving out the values that break a rule between settings (the
 * pre-emptive threshold below the threshold, …). Writes are checked strictly, so this
 * only happens when a lower layer changed afterwards; the conversation still gets valid
 * settings, and `ignored` says what was left out.
 */
export function overlay(base: ResolvedSettings, layer: SettingsLayer, source: SettingSource): ResolvedSettings {
  const kept = new Set(Object.keys(layer) as SettingName[]);
  const ignored: ResolvedSettings["ignored"] = [];
  for (;;) {
    const strict = overlayStrict(base, pick(layer, kept), source);
    if (strict.ok) return { ...strict.resolved, ignored: [...base.ignored, ...ignored] };
    const issueCount = strict.error.issues.length;
    const named = new Set(strict.error.issues.map((issue) => String(issue.path[0])));
    // A rule names one of its two settings; the culprit may be the other one.
    const culprit =
      [...kept].find((name) => named.has(name)) ??
      [...kept].find((name) => {
        const without = parseOver(base.settings, pick(layer, [...kept].filter((other) => other !== name)));
        return without.success || without.error.issues.length < issueCount;
      }) ??
      [...kept][0];
    if (culprit === undefined) return base;
    kept.delete(culprit);
    ignored.push({ name: culprit, source });
  }
}

/** The values of `settings` that differ from `base`: what a layer over `base` must store. */
export function differences(settings: CompressionSettings, base: CompressionSettings): SettingsLayer {
  const layer: Record<string, unknown> = {};
  for (const name of ALL_SETTINGS) {
    if (JSON.stringify(settings[name]) !== JSON.stringify(base[name])) layer[name] = settings[name];
  }
  return layer as SettingsLayer;
}

/** Admin defaults → user settings → conversation overrides, from the stored (unvalidated) layers. */
export function resolveLayers(stored: { defaults?: unknown; user?: unknown; conversation?: unknown }): ResolvedSettings {
  const defaults = overlayStored(BUILT_IN, stored.defaults, "default");
  const user = overlayStored(defaults, stored.user, "user");
  return overlayStored(user, stored.conversation, "conversation", OVERRIDABLE_SETTINGS);
}

/**
 * A stored layer over `base`; a stored value that no longer validates on its own (say a
 * list of overrides longer than a bound added since) is left out and reported with the
 * values that conflict, instead of failing the read.
 */
function overlayStored(base: ResolvedSettings, stored: unknown, source: SettingSource, allowed: readonly SettingName[] = ALL_SETTINGS): ResolvedSettings {
  const { layer, unfit } = readLayer(stored, allowed);
  const resolved = overlay(base, layer, source);
  return unfit.length ? { ...resolved, ignored: [...resolved.ignored, ...unfit.map((name) => ({ name, source }))] } : resolved;
}

/** A conversation's stored overrides with `patch` applied (null removes a value). */
export function patchOverrides(stored: unknown, patch: OverridesPatch): SettingsLayer {
  const next: Record<string, unknown> = { ...storedLayer(stored, OVERRIDABLE_SETTINGS) };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete next[name];
    else if (value !== undefined) next[name] = value;
  }
  return next as SettingsLayer;
}
