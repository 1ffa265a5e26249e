"use client";
import { useId } from "react";
import { SETTING_FIELDS, describeDefault, type SettingName } from "@/components/settings/fields";
import type { FormValues, OverrideRow } from "@/components/settings/form-state";
import { ContextWindowOverrides } from "./ContextWindowOverrides";

const INPUT =
  "h-7 rounded-md border bg-white px-2 text-[12.5px] dark:bg-neutral-950 aria-[invalid=true]:border-red-500 border-neutral-300 dark:border-neutral-700";

/** One setting: label, explanation, default, input, and its errors. */
export function SettingField({
  name,
  value,
  defaultValue,
  errors,
  modelListId,
  onChange,
}: {
  name: SettingName;
  value: FormValues[SettingName];
  defaultValue: unknown;
  errors: string[] | undefined;
  modelListId: string | undefined;
  onChange: (value: FormValues[SettingName]) => void;
}) {
  const meta = SETTING_FIELDS[name];
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);
  const describedBy = invalid ? `${helpId} ${errorId}` : helpId;
  const common = { id, name, "aria-invalid": invalid, "aria-describedby": describedBy } as const;
  const kind = meta.kind;

  let input: React.ReactNode;
  switch (kind.type) {
    case "boolean":
      input = (
        <input
          {...common}
          type="checkbox"
          checked={value as boolean}
          onChange={(event) => onChange(event.target.checked)}
          className="size-4 accent-neutral-900 dark:accent-neutral-100"
        />
      );
      break;
    case "select":
      input = (
        <select {...common} value={value as string} onChange={(event) => onChange(event.target.value)} className={`${INPUT} w-44`}>
          {kind.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    case "fraction":
    case "decimal":
    case "integer":
      input = (
        <span className="flex items-center gap-1.5">
          <input
            {...common}
            type="number"
            inputMode={kind.type === "integer" ? "numeric" : "decimal"}
            step={kind.type === "fraction" ? 0.05 : kind.type === "decimal" ? kind.step : 1}
            value={value as string}
            onChange={(event) => onChange(event.target.value)}
            className={`${INPUT} w-28 font-mono tabular-nums`}
          />
          {kind.type === "integer" && kind.unit ? <span className="text-[11.5px] text-neutral-500">{kind.unit}</span> : null}
        </span>
      );
      break;
    case "text":
      input = (
        <input
          {...common}
          type="text"
          list={kind.model ? modelListId : undefined}
          placeholder={kind.placeholder}
          value={value as string}
          onChange={(event) => onChange(event.target.value)}
          className={`${INPUT} w-56 font-mono`}
        />
      );
      break;
    case "longtext":
      input = (
        <textarea
          {...common}
          rows={3}
          placeholder={kind.placeholder}
          value={value as string}
          onChange={(event) => onChange(event.target.value)}
          className={`${INPUT} h-auto w-full py-1.5 font-mono`}
        />
      );
      break;
    case "overrides":
      input = (
        <ContextWindowOverrides
          name={name}
          rows={value as OverrideRow[]}
          invalid={invalid}
          modelListId={modelListId}
          onChange={(rows) => onChange(rows)}
        />
      );
      break;
  }

  const wide = kind.type === "longtext" || kind.type === "overrides";
  return (
    <div data-testid="setting" data-setting={name} className={`px-4 py-2.5 ${wide ? "space-y-2" : "grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-4 gap-y-1"}`}>
      <div className="min-w-0 flex-1">
        <label htmlFor={kind.type === "overrides" ? undefined : id} className="text-[12.5px] font-medium">
          {meta.label} <code className="ml-1 font-mono text-[10.5px] font-normal text-neutral-600 dark:text-neutral-400">{name}</code>
        </label>
        <p id={helpId} className="text-[12px] leading-snug text-neutral-500">
          {meta.help} <span className="text-neutral-600 dark:text-neutral-400">Default: {describeDefault(defaultValue)}.</span>
        </p>
      </div>
      <div className={wide ? "" : "shrink-0 pt-0.5"}>{input}</div>
      {invalid ? (
        <p id={errorId} data-testid="settings-error" data-field={name} role="alert" className="col-span-full text-[12px] text-red-700 dark:text-red-400">
          {errors!.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
