// The settings form holds what the user typed (strings for numbers, rows for the
// overrides) and converts it to the schema's shape for validation and saving.
import type { z } from "zod";
import { compressionSettingsSchema, DEFAULT_SETTINGS, type CompressionSettings } from "@/lib/compression/settings";
import { issueMessage } from "@/lib/issue-messages";
import { SETTING_FIELDS, type SettingName } from "@/components/settings/fields";

export type OverrideRow = { key: number; model: string; tokens: string };

export type FormValues = {
  [K in SettingName]: K extends "contextWindowOverrides" ? OverrideRow[] : CompressionSettings[K] extends number ? string : CompressionSettings[K];
};

export type FieldErrors = Partial<Record<SettingName, string[]>>;

let rowKeys = 0;
export function newOverrideRow(model = "", tokens = ""): OverrideRow {
  return { key: ++rowKeys, model, tokens };
}

export function toFormValues(settings: CompressionSettings): FormValues {
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(SETTING_FIELDS) as SettingName[]) {
    const value = settings[name];
    if (name === "contextWindowOverrides") {
      values[name] = Object.entries(settings.contextWindowOverrides).map(([model, tokens]) => newOverrideRow(model, String(tokens)));
    } else values[name] = typeof value === "number" ? String(value) : value;
  }
  return values as FormValues;
}

const NUMERIC_KINDS = new Set(["fraction", "integer", "decimal"]);

function toNumber(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text);
}

/** The typed values in the schema's shape, plus problems the schema cannot see (override rows). */
export function fromFormValues(values: FormValues): { input: Record<string, unknown>; rowErrors: string[] } {
  const input: Record<string, unknown> = {};
  const rowErrors: string[] = [];
  for (const name of Object.keys(SETTING_FIELDS) as SettingName[]) {
    const value = values[name];
    if (name === "contextWindowOverrides") {
      // A Map: a model may be named like what every object inherits ("constructor").
      const overrides = new Map<string, number>();
      for (const row of values.contextWindowOverrides) {
        const model = row.model.trim();
        if (!model && !row.tokens.trim()) continue;
        if (!model) rowErrors.push("Each override needs a model name.");
        else if (overrides.has(model)) rowErrors.push(`“${model}” is listed twice.`);
        overrides.set(model, toNumber(row.tokens));
      }
      input[name] = Object.fromEntries(overrides);
    } else input[name] = NUMERIC_KINDS.has(SETTING_FIELDS[name].kind.type) ? toNumber(String(value)) : value;
  }
  return { input, rowErrors };
}

type Issue = z.core.$ZodIssue;

/**
 * The schema's issues in plain words, as every refused field says them (lib/issue-messages.ts),
 * but for what the form makes plain: its fields take numbers, its choices are listed.
 */
function readableIssue(issue: Issue): string {
  if (issue.code === "invalid_type" && (issue.expected === "int" || issue.expected === "number")) {
    return issue.expected === "int" ? "Enter a whole number." : "Enter a number.";
  }
  if (issue.code === "invalid_value") return "Choose one of the listed options.";
  return issueMessage(issue);
}

function collect(issues: readonly Issue[], into: FieldErrors, skip: ReadonlySet<string> = new Set()): void {
  for (const issue of issues) {
    const name = String(issue.path[0] ?? "") as SettingName;
    if (skip.has(name)) continue;
    const where = name === "contextWindowOverrides" && issue.path[1] != null ? `${String(issue.path[1])}: ` : "";
    (into[name] ??= []).push(where + readableIssue(issue));
  }
}

/**
 * Validates with the same schema as the server; errors keyed by setting name, all at
 * once: the rules between fields (which the schema checks only once every field is
 * valid) are checked again with the invalid fields at their defaults.
 */
export function validateSettings(values: FormValues): { settings: CompressionSettings | null; errors: FieldErrors } {
  const { input, rowErrors } = fromFormValues(values);
  const errors: FieldErrors = {};
  const result = compressionSettingsSchema.safeParse(input);
  if (!result.success) {
    collect(result.error.issues, errors);
    const invalid = new Set(Object.keys(errors));
    const patched: Record<string, unknown> = { ...input };
    for (const name of invalid) patched[name] = DEFAULT_SETTINGS[name as SettingName];
    const second = compressionSettingsSchema.safeParse(patched);
    if (!second.success) collect(second.error.issues, errors, invalid);
  }
  if (rowErrors.length) (errors.contextWindowOverrides ??= []).push(...rowErrors);
  return { settings: result.success && rowErrors.length === 0 ? result.data : null, errors };
}

/** Whether two states of the form hold the same settings (row keys aside). */
export function sameValues(a: FormValues, b: FormValues): boolean {
  return JSON.stringify(fromFormValues(a)) === JSON.stringify(fromFormValues(b));
}

/** Server field errors (keys may be dotted paths) mapped onto setting names. */
export function serverFieldErrors(fields: Record<string, string[]> | undefined): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, messages] of Object.entries(fields ?? {})) {
    const name = path.split(".")[0] as SettingName;
    if (Object.hasOwn(SETTING_FIELDS, name)) (errors[name] ??= []).push(...messages);
  }
  return errors;
}
