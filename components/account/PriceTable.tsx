"use client";
import { useState } from "react";
import { savePriceAction } from "@/app/actions";
import { fieldRefusal, formatTime } from "@/components/format";
import type { ModelPriceView } from "@/lib/pricing";
import { submitWith } from "../ui/forms";

const FIELDS = [
  { key: "inputPerMillion", label: "Input" },
  { key: "cachedInputPerMillion", label: "Cached input" },
  { key: "outputPerMillion", label: "Output" },
] as const;

type Draft = { model: string; inputPerMillion: string; cachedInputPerMillion: string; outputPerMillion: string };
const EMPTY: Draft = { model: "", inputPerMillion: "", cachedInputPerMillion: "", outputPerMillion: "" };

const LABELS: Record<string, string> = { model: "Model", ...Object.fromEntries(FIELDS.map((field) => [field.key, field.label])) };


// An empty field is "no price"; anything else goes to the server as typed (a non-number
// as NaN), where the schema says what is wrong with it.
const priceOf = (text: string): number | null => (text.trim() === "" ? null : Number(text));

/** The admin's price per model, in dollars per million tokens: a change applies from the next call; empty prices mean tokens only. */
export function PriceTable({ initialPrices, models }: { initialPrices: ModelPriceView[]; models: string[] | null }) {
  const [prices, setPrices] = useState(initialPrices);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(price: { model: string; inputPerMillion: number | null; cachedInputPerMillion: number | null; outputPerMillion: number | null }) {
    setSaving(true);
    setError(null);
    const result = await savePriceAction(price);
    setSaving(false);
    if (!result.ok) {
      setError(fieldRefusal(result.error, LABELS));
      return false;
    }
    setPrices(result.data);
    return true;
  }

  return (
    <section data-testid="price-table" className="rounded-lg border border-neutral-200 p-4 text-[13px] dark:border-neutral-800">
      <h2 className="font-medium">Model prices</h2>
      <p className="mb-3 text-[12px] text-neutral-500">
        Dollars per million tokens. A change applies from the next model call; calls made before keep the price they had. Without a price,
        a model&apos;s calls are shown in tokens only.
      </p>
      {prices.length > 0 ? (
        <table className="mb-3 w-full text-left text-[12.5px]">
          <thead className="text-neutral-500">
            <tr>
              <th className="font-normal">Model</th>
              {FIELDS.map((field) => (
                <th key={field.key} className="text-right font-normal">
                  {field.label}
                </th>
              ))}
              <th className="text-right font-normal">Since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {prices.map((price) => (
              <tr key={price.model} data-testid="price-row" data-model={price.model}>
                <td className="font-mono">{price.model}</td>
                {FIELDS.map((field) => (
                  <td key={field.key} className="text-right font-mono tabular-nums">
                    {price[field.key]}
                  </td>
                ))}
                <td className="text-right text-neutral-500">{formatTime(price.since)}</td>
                <td className="text-right">
                  <button
                    type="button"
                    data-testid="price-clear"
                    disabled={saving}
                    onClick={() => void save({ model: price.model, inputPerMillion: null, cachedInputPerMillion: null, outputPerMillion: null })}
                    className="text-[12px] text-neutral-600 underline hover:text-neutral-900 dark:text-neutral-400"
                  >
                    Tokens only
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <form
        data-testid="price-form"
        className="flex flex-wrap items-end gap-2"
        onSubmit={submitWith(async () => {
          const saved = await save({
            model: draft.model,
            inputPerMillion: priceOf(draft.inputPerMillion),
            cachedInputPerMillion: priceOf(draft.cachedInputPerMillion),
            outputPerMillion: priceOf(draft.outputPerMillion),
          });
          if (saved) setDraft(EMPTY);
        })}
      >
        <label className="flex flex-col gap-1 text-[12px]">
          Model
          <input
            data-testid="price-model"
            list="price-models"
            value={draft.model}
            onChange={(event) => setDraft({ ...draft, model: event.target.value })}
            className="h-8 w-48 rounded-md border border-neutral-300 px-2 font-mono dark:border-neutral-700 dark:bg-neutral-900"
          />
          <datalist id="price-models">
            {(models ?? []).map((model) => (
              <option key={model} value={model} />
            ))}
          </datalist>
        </label>
        {FIELDS.map((field) => (
          <label key={field.key} className="flex flex-col gap-1 text-[12px]">
            {field.label}
            <input
              data-testid={`price-${field.key}`}
              inputMode="decimal"
              value={draft[field.key]}
              onChange={(event) => setDraft({ ...draft, [field.key]: event.target.value })}
              className="h-8 w-24 rounded-md border border-neutral-300 px-2 font-mono dark:border-neutral-700 dark:bg-neutral-900"
            />
          </label>
        ))}
        <button
          type="submit"
          data-testid="price-save"
          disabled={saving}
          className="h-8 rounded-md bg-neutral-900 px-3 text-[12.5px] font-medium text-white disabled:opacity-50 dark:bg-neutral-100 dark:text-neutral-900"
        >
          Save price
        </button>
      </form>
      {error ? (
        <p role="alert" data-testid="price-error" className="mt-2 text-[12px] text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </section>
  );
}
