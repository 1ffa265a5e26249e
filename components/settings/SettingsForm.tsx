"use client";
import { useState } from "react";
import type { CompressionSettings } from "@/lib/compression/settings";
import type { ActionResult } from "@/lib/chat/result";
import { SETTING_GROUPS } from "@/lib/client/settings-fields";
import {
  serverFieldErrors,
  toFormValues,
  validateSettings,
  type FieldErrors,
  type FormValues,
} from "@/lib/client/settings-form-state";
import { Button } from "../ui/Button";
import { EffectiveFigures } from "./EffectiveFigures";
import { SettingField } from "./SettingField";

type SaveState = { tone: "ok" | "error"; text: string } | null;

/** One form for a user's settings and for the admin's defaults: `save` is the server action that stores them. */
export function SettingsForm({
  initialSettings,
  defaults,
  models,
  defaultModel,
  overheadTokens,
  save: saveAction,
}: {
  initialSettings: CompressionSettings;
  defaults: CompressionSettings;
  models: string[] | null;
  /** The model new conversations use: always among the per-model figures. */
  defaultModel: string | null;
  /** What every request carries besides the conversation (tool definitions). */
  overheadTokens: number;
  save: (settings: CompressionSettings) => Promise<ActionResult<CompressionSettings>>;
}) {
  const [values, setValues] = useState<FormValues>(() => toFormValues(initialSettings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [saveState, setSaveState] = useState<SaveState>(null);

  const setValue = <K extends keyof FormValues>(name: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setSaveState(null);
  };

  async function save(next: FormValues) {
    const { settings, errors: clientErrors } = validateSettings(next);
    setErrors(clientErrors);
    if (!settings) {
      setSaveState({ tone: "error", text: "Not saved: fix the highlighted fields." });
      return;
    }
    setSaving(true);
    const result = await saveAction(settings);
    setSaving(false);
    if (!result.ok) {
      setErrors(serverFieldErrors(result.error.fields));
      setSaveState({ tone: "error", text: `Not saved: ${result.error.message}` });
      return;
    }
    setValues(toFormValues(result.data));
    setSaveState({ tone: "ok", text: "Saved. The next turn uses these settings." });
  }

  const modelListId = "known-models";

  return (
    <form
      noValidate
      data-testid="settings-form"
      className="mx-auto max-w-3xl space-y-6 px-6 py-6"
      onSubmit={(event) => {
        event.preventDefault();
        void save(values);
      }}
    >
      {models ? (
        <datalist id={modelListId}>
          {models.map((model) => (
            <option key={model} value={model} />
          ))}
        </datalist>
      ) : null}
      {SETTING_GROUPS.map((group) => (
        <fieldset key={group.title} className="rounded-lg border border-neutral-200 dark:border-neutral-800">
          <legend className="ml-3 px-1.5 text-[12.5px] font-semibold">{group.title}</legend>
          <p className="-mt-1 px-4 pb-1 text-[12px] text-neutral-500">{group.description}</p>
          <div className="divide-y divide-neutral-100 dark:divide-neutral-800/70">
            {group.fields.map((name) => (
              <SettingField
                key={name}
                name={name}
                value={values[name]}
                defaultValue={defaults[name]}
                errors={errors[name]}
                modelListId={models ? modelListId : undefined}
                onChange={(value) => setValue(name, value as FormValues[typeof name])}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <EffectiveFigures
        settings={validateSettings(values).settings}
        models={[...new Set([...(defaultModel ? [defaultModel] : []), ...values.contextWindowOverrides.map((row) => row.model.trim()).filter(Boolean), ...(models ?? []).slice(0, 5)])]}
        overheadTokens={overheadTokens}
      />
      <div className="sticky bottom-0 flex items-center gap-3 border-t border-neutral-200 bg-white/95 py-3 backdrop-blur dark:border-neutral-800 dark:bg-neutral-950/95">
        <Button type="submit" variant="primary" data-testid="settings-save" disabled={saving}>
          {saving ? "Saving…" : "Save settings"}
        </Button>
        <Button
          data-testid="settings-reset"
          disabled={saving}
          onClick={() => {
            const reset = toFormValues(defaults);
            setValues(reset);
            void save(reset);
          }}
        >
          Reset to defaults
        </Button>
        {saveState ? (
          <p
            data-testid="settings-status"
            role={saveState.tone === "error" ? "alert" : "status"}
            className={`text-[12.5px] ${saveState.tone === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}`}
          >
            {saveState.text}
          </p>
        ) : null}
      </div>
    </form>
  );
}
