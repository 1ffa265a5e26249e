"use client";
import { useId, useState } from "react";
import { saveAdminModelListAction } from "@/app/actions";
import { Button } from "../ui/Button";
import { submitWith } from "../ui/forms";

/** The admin's list of models for the picker, one per line, beside what the model server lists. */
export function ModelListAdmin({ initialModels, serverModels }: { initialModels: string[]; serverModels: string[] | null }) {
  const id = useId();
  const [text, setText] = useState(initialModels.join("\n"));
  const [status, setStatus] = useState<{ tone: "ok" | "error"; text: string } | null>(null);

  async function save() {
    const result = await saveAdminModelListAction({ models: text.split("\n") });
    if (!result.ok) {
      setStatus({ tone: "error", text: `Not saved: ${result.error.message}` });
      return;
    }
    setText(result.data.join("\n"));
    setStatus({ tone: "ok", text: `Saved: ${result.data.length} model${result.data.length === 1 ? "" : "s"} offered besides the server's.` });
  }

  return (
    <section aria-labelledby={`${id}-title`} data-testid="admin-model-list" className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
      <h2 id={`${id}-title`} className="text-[13px] font-medium">
        Models to offer
      </h2>
      <p id={`${id}-help`} className="text-[12px] text-neutral-500">
        One name per line, offered in every conversation&apos;s model picker besides the models the server lists
        {serverModels === null ? " (it lists none right now)" : ` (${serverModels.length} now)`}. Users may still type any name.
      </p>
      <form className="mt-2 space-y-2" noValidate onSubmit={submitWith(save)}>
        <label htmlFor={`${id}-models`} className="sr-only">
          Models to offer, one per line
        </label>
        <textarea
          id={`${id}-models`}
          data-testid="admin-model-list-text"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={4}
          spellCheck={false}
          aria-describedby={`${id}-help`}
          className="w-full rounded-md border border-neutral-300 bg-white px-2 py-1.5 font-mono text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950"
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" data-testid="admin-model-list-save">
            Save list
          </Button>
          <p
            role="status"
            className={`text-[12.5px] ${status?.tone === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}`}
          >
            {status?.text ?? ""}
          </p>
        </div>
      </form>
    </section>
  );
}
