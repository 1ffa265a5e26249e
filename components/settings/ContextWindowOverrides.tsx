"use client";
import { newOverrideRow, type OverrideRow } from "@/components/settings/form-state";
import { MAX_CONTEXT_WINDOW_OVERRIDES } from "@/lib/compression/settings";
import { Button } from "../ui/Button";
import { CloseIcon, PlusIcon } from "../ui/icons";

/** Editable model → tokens rows. The hidden input carries the setting's name for the form. */
export function ContextWindowOverrides({
  name,
  rows,
  invalid,
  modelListId,
  onChange,
}: {
  name: string;
  rows: OverrideRow[];
  invalid: boolean;
  modelListId: string | undefined;
  onChange: (rows: OverrideRow[]) => void;
}) {
  const update = (key: number, patch: Partial<OverrideRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const serialized = JSON.stringify(Object.fromEntries(rows.filter((r) => r.model.trim()).map((r) => [r.model.trim(), Number(r.tokens)])));
  return (
    <div className="space-y-1.5" role="group" aria-label="Context-window overrides">
      <input type="hidden" name={name} value={serialized} />
      {rows.length === 0 ? <p className="text-[12px] text-neutral-500">No overrides: the built-in table applies.</p> : null}
      {rows.map((row, index) => (
        <div key={row.key} data-testid="override-row" className="flex flex-wrap items-center gap-2">
          <input
            aria-label={`Model ${index + 1}`}
            data-testid="override-model"
            list={modelListId}
            value={row.model}
            placeholder="model name"
            aria-invalid={invalid}
            onChange={(event) => update(row.key, { model: event.target.value })}
            className="h-7 w-56 max-w-full rounded-md border border-neutral-300 bg-white px-2 font-mono text-[12.5px] aria-[invalid=true]:border-red-500 dark:border-neutral-700 dark:bg-neutral-950"
          />
          <span className="text-neutral-400">→</span>
          <input
            aria-label={`Context window of model ${index + 1} (tokens)`}
            data-testid="override-tokens"
            type="number"
            min={256}
            step={1}
            value={row.tokens}
            aria-invalid={invalid}
            onChange={(event) => update(row.key, { tokens: event.target.value })}
            className="h-7 w-28 rounded-md border border-neutral-300 bg-white px-2 font-mono text-[12.5px] tabular-nums aria-[invalid=true]:border-red-500 dark:border-neutral-700 dark:bg-neutral-950"
          />
          <span className="text-[11.5px] text-neutral-500">tokens</span>
          <button
            type="button"
            aria-label={`Remove override ${index + 1}`}
            onClick={() => onChange(rows.filter((candidate) => candidate.key !== row.key))}
            className="rounded p-1 text-neutral-400 hover:bg-neutral-100 hover:text-neutral-800 dark:hover:bg-neutral-800"
          >
            <CloseIcon />
          </button>
        </div>
      ))}
      <Button
        size="xs"
        data-testid="override-add"
        disabled={rows.length >= MAX_CONTEXT_WINDOW_OVERRIDES}
        title={rows.length >= MAX_CONTEXT_WINDOW_OVERRIDES ? `At most ${MAX_CONTEXT_WINDOW_OVERRIDES} overrides.` : undefined}
        onClick={() => onChange([...rows, newOverrideRow()])}
      >
        <PlusIcon className="size-3" /> Add override
      </Button>
    </div>
  );
}
