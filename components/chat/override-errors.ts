// What is wrong with a conversation's overrides, in the dialog's words: each field's
// rule is read from the settings schema (so a changed bound changes the message), and
// the rule between the auto and the pre-emptive threshold names the pre-emptive
// threshold's value and where it is set, since the dialog cannot change it.
import type { z } from "zod";
import { SETTING_FIELDS } from "@/components/settings/fields";
import { formatCount } from "@/components/format";
import { compressionSettingsObject } from "@/lib/compression/settings";
import type { OverridableSetting, ResolvedSettings, SettingSource } from "@/lib/settings-layers";

export type NumberRule = { integer: boolean; min: number | null; max: number | null; minIncluded: boolean; maxIncluded: boolean };

/** A number schema's bounds, each with whether the bound itself is allowed (tried on the schema). */
export function numberRule(schema: z.ZodNumber): NumberRule {
  const finite = (value: number | null) => (value !== null && Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : null);
  const min = finite(schema.minValue);
  const max = finite(schema.maxValue);
  return {
    integer: schema.isInt,
    min,
    max,
    minIncluded: min !== null && schema.safeParse(min).success,
    maxIncluded: max !== null && schema.safeParse(max).success,
  };
}

const show = (value: number) => (Number.isInteger(value) ? formatCount(value) : String(value));

/** "Auto threshold must be a number above 0 and at most 1." */
export function describeRule(label: string, rule: NumberRule): string {
  const kind = rule.integer ? "a whole number" : "a number";
  const { min, max } = rule;
  if (min !== null && max !== null && rule.minIncluded && rule.maxIncluded) return `${label} must be ${kind} from ${show(min)} to ${show(max)}.`;
  const low = min === null ? "" : rule.minIncluded ? `, ${show(min)} or more` : ` above ${show(min)}`;
  const high = max === null ? "" : `${low ? " and" : ""} ${rule.maxIncluded ? "at most" : "below"} ${show(max)}`;
  return `${label} must be ${kind}${low}${high}.`;
}

export const NUMERIC_OVERRIDES = ["threshold", "keepRecentCount", "recallMaxTokens"] as const satisfies readonly OverridableSetting[];
type NumericOverride = (typeof NUMERIC_OVERRIDES)[number];

export const isNumericOverride = (name: OverridableSetting): name is NumericOverride => (NUMERIC_OVERRIDES as readonly string[]).includes(name);

const RULES: Record<NumericOverride, NumberRule> = {
  threshold: numberRule(compressionSettingsObject.shape.threshold.unwrap()),
  keepRecentCount: numberRule(compressionSettingsObject.shape.keepRecentCount.unwrap()),
  recallMaxTokens: numberRule(compressionSettingsObject.shape.recallMaxTokens.unwrap()),
};

/** Where a value the dialog does not edit comes from. */
export const SOURCE_PLACE: Record<SettingSource, string> = {
  default: "the defaults",
  user: "your settings",
  conversation: "this conversation",
};

/** The number a text field holds, or null when it holds none. */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** Problems of the overridden values, by setting: empty when the server would accept them. */
export function overrideErrors(
  values: Partial<Record<OverridableSetting, string>>,
  resolved: Pick<ResolvedSettings, "settings" | "sources">,
): Partial<Record<OverridableSetting, string[]>> {
  const errors: Partial<Record<OverridableSetting, string[]>> = {};
  for (const name of NUMERIC_OVERRIDES) {
    const text = values[name];
    if (text === undefined) continue;
    const value = parseNumber(text);
    const schema = compressionSettingsObject.shape[name].unwrap();
    if (value === null || !schema.safeParse(value).success) errors[name] = [describeRule(SETTING_FIELDS[name].label, RULES[name])];
  }
  const threshold = values.threshold === undefined ? resolved.settings.threshold : parseNumber(values.threshold);
  const preemptive = resolved.settings.preemptiveThreshold;
  if (!errors.threshold && threshold !== null && preemptive > 0 && threshold <= preemptive) {
    errors.threshold = [
      `${SETTING_FIELDS.threshold.label} must be above the ${SETTING_FIELDS.preemptiveThreshold.label.toLowerCase()}, ${preemptive} (from ${SOURCE_PLACE[resolved.sources.preemptiveThreshold]}): choose more than ${preemptive}, or first lower the ${SETTING_FIELDS.preemptiveThreshold.label.toLowerCase()} in Compression settings (0 turns it off).`,
    ];
  }
  return errors;
}
