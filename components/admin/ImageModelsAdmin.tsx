"use client";
import { useId, useState } from "react";
import { saveImageModelListsAction } from "@/app/actions";
import { Button } from "../ui/Button";
import { submitWith } from "../ui/forms";

type Lists = { imageModels: string[]; textOnlyModels: string[] };

const lines = (text: string) => text.split("\n");

type ListFieldProps = { label: string; testId: string; value: string; onChange: (value: string) => void; describedBy: string };

function ListField({ label, testId, value, onChange, describedBy }: ListFieldProps) {
  return (
    <label className="text-[12.5px]">
      {label}
      <textarea
        data-testid={testId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        rows={3}
        spellCheck={false}
        aria-describedby={describedBy}
        className="w-full rounded-md border border-neutral-300 bg-white px-2 py-1.5 font-mono text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950"
      />
    </label>
  );
}

/** Which models take images: the admin's word, beside Strata's guess from well-known model names. */
export function ImageModelsAdmin({ initial }: { initial: Lists }) {
  const id = useId();
  const [takes, setTakes] = useState(initial.imageModels.join("\n"));
  const [refuses, setRefuses] = useState(initial.textOnlyModels.join("\n"));
  const [status, setStatus] = useState<{ tone: "ok" | "error"; text: string } | null>(null);

  async function save() {
    const result = await saveImageModelListsAction({ imageModels: lines(takes), textOnlyModels: lines(refuses) });
    if (!result.ok) {
      setStatus({ tone: "error", text: `Not saved: ${result.error.message}` });
      return;
    }
    setTakes(result.data.imageModels.join("\n"));
    setRefuses(result.data.textOnlyModels.join("\n"));
    setStatus({ tone: "ok", text: "Saved: applies to the next upload and the next reply." });
  }

  return (
    <section aria-labelledby={`${id}-title`} data-testid="admin-image-models" className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
      <h2 id={`${id}-title`} className="text-[13px] font-medium">
        Models that take images
      </h2>
      <p id={`${id}-help`} className="text-[12px] text-neutral-500">
        Names or name prefixes, one per line. Without an entry here Strata goes by the name (gpt-4o, gpt-4.1, gpt-5, Claude 3 and
        later, Gemini, LLaVA, Qwen-VL, Pixtral… take images); any other model gets text only, and an image is refused at upload.
      </p>
      <form className="mt-2 grid gap-2 sm:grid-cols-2" noValidate onSubmit={submitWith(save)}>
        <ListField label="Take images" testId="admin-image-models-text" value={takes} onChange={setTakes} describedBy={`${id}-help`} />
        <ListField label="Text only" testId="admin-text-only-models-text" value={refuses} onChange={setRefuses} describedBy={`${id}-help`} />
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Button type="submit" data-testid="admin-image-models-save">
            Save
          </Button>
          <p role="status" className={`text-[12.5px] ${status?.tone === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}`}>
            {status?.text ?? ""}
          </p>
        </div>
      </form>
    </section>
  );
}
