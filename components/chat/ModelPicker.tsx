"use client";
import { useId, useRef, useState } from "react";
import { updateModelSettingsAction } from "@/app/actions";
import { fetchRead } from "../queries/fetch-read";
import { setMeter } from "@/components/queries/conversation-data";
import { MAX_INSTRUCTIONS_CHARS } from "@/lib/chat/instructions";
import { Button } from "../ui/Button";
import { submitWith } from "../ui/forms";
import { parseTemperature, temperatureText } from "./temperature-field";
import { Dialog } from "@/components/ui/Dialog";

/** The option that reveals a text field (servers may not list every model they serve); no trimmed name starts with a space. */
const OTHER = " other";

type Loaded = { models: string[]; serverListed: boolean };
type Draft = { choice: string; typed: string; instructions: string; temperature: string };
type Status = { tone: "ok" | "error"; text: string } | null;

const FIELD = "w-full rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950";

/**
 * The conversation's model, instructions and reply temperature, in the header: the
 * model's name opens a dialog. Saving a model with another window re-measures the
 * context at once (the meter), and the next turn compresses to that window.
 */
export function ModelPicker({ conversationId, initialModel }: { conversationId: string; initialModel: string }) {
  const id = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [model, setModel] = useState(initialModel);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [status, setStatus] = useState<Status>(null);
  const [saving, setSaving] = useState(false);

  async function open() {
    setStatus(null);
    setErrors({});
    setDraft(null);
    dialogRef.current?.showModal();
    const result = await fetchRead("modelSettings", conversationId);
    if (!result.ok) {
      setStatus({ tone: "error", text: result.error.message });
      return;
    }
    const { settings, models, serverListed } = result.data;
    setModel(settings.model);
    setLoaded({ models, serverListed });
    setDraft({ choice: settings.model, typed: "", instructions: settings.instructions, temperature: temperatureText(settings.temperature) });
  }

  async function save() {
    if (!draft) return;
    const name = (draft.choice === OTHER ? draft.typed : draft.choice).trim();
    const temperature = parseTemperature(draft.temperature);
    const local: Record<string, string[]> = {};
    if (!name) local.model = ["Type the model's name."];
    if (draft.instructions.length > MAX_INSTRUCTIONS_CHARS) local.instructions = [`Instructions are at most ${MAX_INSTRUCTIONS_CHARS.toLocaleString("en-US")} characters.`];
    if (temperature === "invalid") local.temperature = ["The temperature must be a number from 0 to 2, or empty."];
    if (Object.keys(local).length > 0) {
      setErrors(local);
      setStatus({ tone: "error", text: "Not saved: see the messages above." });
      return;
    }
    setSaving(true);
    const result = await updateModelSettingsAction({
      conversationId,
      model: name,
      instructions: draft.instructions,
      temperature: temperature === "invalid" ? null : temperature,
    });
    setSaving(false);
    if (!result.ok) {
      setErrors(result.error.fields ?? {});
      setStatus({ tone: "error", text: `Not saved: ${result.error.message}` });
      return;
    }
    const { settings, meter } = result.data;
    setErrors({});
    setModel(settings.model);
    setLoaded((current) => (current && !current.models.includes(settings.model) ? { ...current, models: [settings.model, ...current.models] } : current));
    setDraft({ choice: settings.model, typed: "", instructions: settings.instructions, temperature: temperatureText(settings.temperature) });
    setMeter(conversationId, meter);
    setStatus({ tone: "ok", text: "Saved. The next reply uses these." });
  }

  const update = (patch: Partial<Draft>) => setDraft((current) => (current ? { ...current, ...patch } : current));
  const fieldError = (name: string) =>
    errors[name]?.length ? (
      <p id={`${id}-${name}-error`} className="mt-1 text-[12px] text-red-700 dark:text-red-400" data-testid={`model-settings-${name}-error`}>
        {errors[name]!.join(" ")}
      </p>
    ) : null;
  const describedBy = (name: string) => (errors[name]?.length ? `${id}-${name}-error` : undefined);

  return (
    <>
      <button
        type="button"
        onClick={() => void open()}
        data-testid="model-picker"
        aria-label={`${model}: model and instructions`}
        className="inline-flex max-w-[50%] shrink-0 items-center rounded px-1 py-0.5 hover:bg-neutral-100 dark:hover:bg-neutral-800"
      >
        <span className="truncate font-mono text-[11.5px] text-neutral-500" data-testid="model-name">
          {model}
        </span>
      </button>
      <Dialog
        dialogRef={dialogRef}
        testId="model-settings-dialog"
        width="w-[min(36rem,calc(100vw-2rem))]"
        title="Model and instructions"
      >
        {draft && loaded ? (
          <form className="space-y-4 p-4" noValidate onSubmit={submitWith(save)}>
            <div>
              <label htmlFor={`${id}-model`} className="block text-[12.5px] font-medium">
                Model
              </label>
              <select
                id={`${id}-model`}
                data-testid="model-select"
                value={draft.choice}
                onChange={(event) => update({ choice: event.target.value })}
                aria-describedby={describedBy("model")}
                className={`${FIELD} mt-1 h-8`}
              >
                {loaded.models.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
                <option value={OTHER}>Another model (type its name)…</option>
              </select>
              {draft.choice === OTHER ? (
                <div className="mt-2">
                  <label htmlFor={`${id}-typed`} className="block text-[12px] text-neutral-600 dark:text-neutral-400">
                    Model name, as the server knows it
                  </label>
                  <input
                    id={`${id}-typed`}
                    data-testid="model-typed"
                    value={draft.typed}
                    onChange={(event) => update({ typed: event.target.value })}
                    autoComplete="off"
                    spellCheck={false}
                    aria-describedby={describedBy("model")}
                    className={`${FIELD} mt-1 h-8 font-mono`}
                  />
                </div>
              ) : null}
              {fieldError("model")}
              {loaded.serverListed ? null : (
                <p data-testid="model-list-note" className="mt-1 text-[12px] text-neutral-500">
                  The model server did not list its models just now; these are the admin&apos;s list and this conversation&apos;s model.
                </p>
              )}
              <p className="mt-1 text-[12px] text-neutral-500">Another model may have another context window: the meter re-measures when you save.</p>
            </div>
            <div>
              <label htmlFor={`${id}-instructions`} className="block text-[12.5px] font-medium">
                Instructions
              </label>
              <p id={`${id}-instructions-help`} className="text-[12px] text-neutral-500">
                Sent to the model before the conversation, on every turn (the system prompt); counted in the context meter. New
                conversations start with your default instructions from Settings.
              </p>
              <textarea
                id={`${id}-instructions`}
                data-testid="model-instructions"
                value={draft.instructions}
                onChange={(event) => update({ instructions: event.target.value })}
                rows={6}
                aria-describedby={[`${id}-instructions-help`, describedBy("instructions")].filter(Boolean).join(" ")}
                className={`${FIELD} mt-1 py-1.5`}
              />
              <p className="text-right text-[11.5px] text-neutral-500 tabular-nums">
                {draft.instructions.length.toLocaleString("en-US")} / {MAX_INSTRUCTIONS_CHARS.toLocaleString("en-US")}
              </p>
              {fieldError("instructions")}
            </div>
            <div>
              <label htmlFor={`${id}-temperature`} className="block text-[12.5px] font-medium">
                Temperature
              </label>
              <input
                id={`${id}-temperature`}
                data-testid="model-temperature"
                inputMode="decimal"
                value={draft.temperature}
                placeholder="server default"
                onChange={(event) => update({ temperature: event.target.value })}
                aria-describedby={[`${id}-temperature-help`, describedBy("temperature")].filter(Boolean).join(" ")}
                className={`${FIELD} mt-1 h-8 w-32`}
              />
              <p id={`${id}-temperature-help`} className="mt-1 text-[12px] text-neutral-500">
                0–2: low answers steadily, high varies more. Empty: none is sent and the server decides.
              </p>
              {fieldError("temperature")}
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Button type="submit" variant="primary" disabled={saving} data-testid="model-settings-save">
                Save
              </Button>
              <Button onClick={() => dialogRef.current?.close()}>Close</Button>
            </div>
          </form>
        ) : null}
        <div className="px-4 pb-3">
          <p
            role="status"
            data-testid="model-settings-status"
            className={`text-[12.5px] ${status?.tone === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}`}
          >
            {status?.text ?? (draft ? "" : "Loading…")}
          </p>
        </div>
      </Dialog>
    </>
  );
}
