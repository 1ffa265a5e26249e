// The settings form holds what the user typed (strings for numbers, rows for the
// overrides) and converts it to the schema's shape for validation and saving.
import { compressionSettingsSchema, type CompressionSettings } from "@/lib/compression/settings";
import { SETTING_FIELDS, type SettingName } from "./settings-fields";

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
      const overrides: Record<string, number> = {};
      for (const row of values.contextWindowOverrides) {
        const model = row.model.trim();
        if (!model && !row.tokens.trim()) continue;
        if (!model) rowErrors.push("Each override needs a model name.");
        else if (model in overrides) rowErrors.push(`“${model}” is listed twice.`);
        overrides[model] = toNumber(row.tokens);
      }
      input[name] = overrides;
    } else input[name] = NUMERIC_KINDS.has(SETTING_FIELDS[name].kind.type) ? toNumber(String(value)) : value;
  }
  return { input, rowErrors };
}

function readableMessage(message: string): string {
  if (/expected number, received NaN/i.test(message)) return "Enter a number.";
  return message;
}

/** Validates with the same schema as the server; errors keyed by setting name. */
export function validateSettings(values: FormValues): { settings: CompressionSettings | null; errors: FieldErrors } {
  const { input, rowErrors } = fromFormValues(values);
  const errors: FieldErrors = {};
  const result = compressionSettingsSchema.safeParse(input);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = (issue.path[0] ?? "") as SettingName;
      const where = name === "contextWindowOverrides" && issue.path[1] != null ? `${String(issue.path[1])}: ` : "";
      (errors[name] ??= []).push(where + readableMessage(issue.message));
    }
  }
  if (rowErrors.length) (errors.contextWindowOverrides ??= []).push(...rowErrors);
  return { settings: result.success && rowErrors.length === 0 ? result.data : null, errors };
}

/** Server field errors (keys may be dotted paths) mapped onto setting names. */
export function serverFieldErrors(fields: Record<string, string[]> | undefined): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, messages] of Object.entries(fields ?? {})) {
    const name = path.split(".")[0] as SettingName;
    if (name in SETTING_FIELDS) (errors[name] ??= []).push(...messages);
  }
  return errors;
}
