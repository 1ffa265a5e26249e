"use client";
import { useId, useState } from "react";
import { saveChatDefaultsAction } from "@/app/actions";
import { MAX_INSTRUCTIONS_CHARS } from "@/lib/chat/instructions";
import { Button } from "../ui/Button";
import { submitWith } from "../ui/forms";
import { parseTemperature, temperatureText } from "../chat/temperature-field";

const FIELD = "w-full rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950";

/** The user's default instructions and reply temperature: what each new conversation starts with. */
export function ChatDefaultsForm({ initial }: { initial: { instructions: string; temperature: number | null } }) {
  const id = useId();
  const [instructions, setInstructions] = useState(initial.instructions);
  const [temperature, setTemperature] = useState(temperatureText(initial.temperature));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [status, setStatus] = useState<{ tone: "ok" | "error"; text: string } | null>(null);

  async function save() {
    const parsed = parseTemperature(temperature);
    const local: Record<string, string[]> = {};
    if (instructions.length > MAX_INSTRUCTIONS_CHARS) local.instructions = [`Instructions are at most ${MAX_INSTRUCTIONS_CHARS.toLocaleString("en-US")} characters.`];
    if (parsed === "invalid") local.temperature = ["The temperature must be a number from 0 to 2, or empty."];
    if (Object.keys(local).length > 0 || parsed === "invalid") {
      setErrors(local);
      setStatus({ tone: "error", text: "Not saved: see the messages above." });
      return;
    }
    const result = await saveChatDefaultsAction({ instructions, temperature: parsed });
    if (!result.ok) {
      setErrors(result.error.fields ?? {});
      setStatus({ tone: "error", text: `Not saved: ${result.error.message}` });
      return;
    }
    setErrors({});
    setInstructions(result.data.instructions);
    setTemperature(temperatureText(result.data.temperature));
    setStatus({ tone: "ok", text: "Saved. New conversations start with these." });
  }

  const fieldError = (name: string) =>
    errors[name]?.length ? (
      <p id={`${id}-${name}-error`} className="mt-1 text-[12px] text-red-700 dark:text-red-400" data-testid={`chat-defaults-${name}-error`}>
        {errors[name]!.join(" ")}
      </p>
    ) : null;

  return (
    <section aria-labelledby={`${id}-title`} data-testid="chat-defaults" className="mx-auto max-w-3xl px-4 pt-6 md:px-6">
      <h2 id={`${id}-title`} className="text-[13.5px] font-semibold">
        Default instructions
      </h2>
      <p className="text-[12px] text-neutral-500">
        Each new conversation starts with these; change a conversation&apos;s own under its model name in the header. Not the custom
        summary prompt below, which only the summary model reads.
      </p>
      <form className="mt-3 space-y-3" noValidate onSubmit={submitWith(save)}>
        <div>
          <label htmlFor={`${id}-instructions`} className="block text-[12.5px] font-medium">
            Instructions for new conversations
          </label>
          <textarea
            id={`${id}-instructions`}
            data-testid="chat-defaults-instructions"
            value={instructions}
            onChange={(event) => setInstructions(event.target.value)}
            rows={4}
            aria-describedby={errors.instructions?.length ? `${id}-instructions-error` : undefined}
            className={`${FIELD} mt-1 py-1.5`}
          />
          {fieldError("instructions")}
        </div>
        <div>
          <label htmlFor={`${id}-temperature`} className="block text-[12.5px] font-medium">
            Reply temperature for new conversations
          </label>
          <input
            id={`${id}-temperature`}
            data-testid="chat-defaults-temperature"
            inputMode="decimal"
            placeholder="server default"
            value={temperature}
            onChange={(event) => setTemperature(event.target.value)}
            aria-describedby={[`${id}-temperature-help`, errors.temperature?.length ? `${id}-temperature-error` : ""].filter(Boolean).join(" ")}
            className={`${FIELD} mt-1 h-8 w-32`}
          />
          <p id={`${id}-temperature-help`} className="mt-1 text-[12px] text-neutral-500">
            0–2, or empty: none is sent and the server decides.
          </p>
          {fieldError("temperature")}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="primary" data-testid="chat-defaults-save">
            Save defaults
          </Button>
          <p
            role="status"
            data-testid="chat-defaults-status"
            className={`text-[12.5px] ${status?.tone === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}`}
          >
            {status?.text ?? ""}
          </p>
        </div>
      </form>
    </section>
  );
}
