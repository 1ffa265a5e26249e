"use client";
import { useEffect, useRef, useState } from "react";
import type { CompressionSettings } from "@/lib/compression/settings";
import type { ActionResult } from "@/lib/errors";
import { SETTING_GROUPS } from "@/components/settings/fields";
import {
  sameValues,
  serverFieldErrors,
  toFormValues,
  validateSettings,
  type FieldErrors,
  type FormValues,
} from "@/components/settings/form-state";
import { Button } from "../ui/Button";
import { EffectiveFigures } from "./EffectiveFigures";
import { SettingField } from "./SettingField";
import type { OverheadTokens } from "@/lib/chat/tool-set";

type SaveState = { tone: "ok" | "error"; text: string } | null;

export const RESET_QUESTION = "Reset every setting to the defaults and save? Your context-window overrides are kept.";
export const LEAVE_QUESTION = "Your settings have unsaved changes. Leave this page and lose them?";

/**
 * Asks before unsaved edits are lost: closing or reloading the tab (the browser's own
 * prompt) and following a link inside the app (Next's router has no blocking hook, so
 * link clicks are checked before it sees them).
 */
function useLeaveWarning(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    const click = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement) || link.target === "_blank" || link.origin !== window.location.origin) return;
      if (link.pathname === window.location.pathname) return;
      if (!window.confirm(LEAVE_QUESTION)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", click, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", click, true);
    };
  }, [dirty]);
}

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
  overheadTokens: OverheadTokens;
  save: (settings: CompressionSettings) => Promise<ActionResult<CompressionSettings>>;
}) {
  const [values, setValues] = useState<FormValues>(() => toFormValues(initialSettings));
  // What is stored: the form is "dirty" while it differs.
  const [saved, setSaved] = useState<FormValues>(() => toFormValues(initialSettings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const dirty = !sameValues(values, saved);
  useLeaveWarning(dirty);

  /** After a refused save: the first field in error gets the focus (and scrolls into view). */
  const focusFirstError = () =>
    requestAnimationFrame(() => {
      const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      first?.focus();
      first?.scrollIntoView({ block: "center" });
    });
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
      setSaveState({ tone: "error", text: `Not saved: fix the ${Object.keys(clientErrors).length === 1 ? "highlighted field" : "highlighted fields"}.` });
      focusFirstError();
      return;
    }
    setSaving(true);
    const result = await saveAction(settings);
    setSaving(false);
    if (!result.ok) {
      setErrors(serverFieldErrors(result.error.fields));
      setSaveState({ tone: "error", text: `Not saved: ${result.error.message}` });
      focusFirstError();
      return;
    }
    setValues(toFormValues(result.data));
    setSaved(toFormValues(result.data));
    setSaveState({ tone: "ok", text: "Saved. The next turn uses these settings." });
  }

  const modelListId = "known-models";

  return (
    <form
      ref={formRef}
      noValidate
      data-dirty={dirty || undefined}
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
            // The context-window overrides describe the user's models, not a preference: kept.
            if (!window.confirm(RESET_QUESTION)) return;
            const reset = { ...toFormValues(defaults), contextWindowOverrides: values.contextWindowOverrides };
            setValues(reset);
            void save(reset);
          }}
        >
          Reset to defaults
        </Button>
        {dirty && !saveState ? (
          <p data-testid="settings-unsaved" className="text-[12.5px] text-amber-800 dark:text-amber-300">
            Unsaved changes
          </p>
        ) : null}
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
