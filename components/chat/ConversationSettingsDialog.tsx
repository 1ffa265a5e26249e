"use client";
import Link from "next/link";
import { useRef, useState } from "react";
import { updateConversationSettingsAction } from "@/app/actions";
import { fetchRead } from "../queries/fetch-read";
import { useChat } from "@/components/stores/chat-store";
import { SETTING_FIELDS, type SettingName } from "@/components/settings/fields";
import { RECALL_MODES, STRATEGIES } from "@/lib/compression/settings";
import { OVERRIDABLE_SETTINGS, type OverridableSetting, type OverridesPatch, type ResolvedSettings, type SettingSource } from "@/lib/settings-layers";
import { Button } from "../ui/Button";
import { SlidersIcon } from "../ui/icons";
import { HeaderLabel, PHONE_MENU_PLAIN, PHONE_MENU_ROW } from "./HeaderLabel";
import { submitWith } from "../ui/forms";
import { AllowedTools } from "./AllowedTools";
import { SOURCE_PLACE, isNumericOverride, overrideErrors, parseNumber } from "./override-errors";
import { Dialog } from "@/components/ui/Dialog";

type Row = { overridden: boolean; text: string };
type Rows = Record<OverridableSetting, Row>;

const SOURCE_LABEL: Record<SettingSource, string> = { default: "default", user: "your settings", conversation: "this conversation" };
const SOURCE_STYLE: Record<SettingSource, string> = {
  default: "bg-neutral-200 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300",
  user: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
  conversation: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
};
const INPUT = "h-7 w-full rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] disabled:opacity-60 dark:border-neutral-700 dark:bg-neutral-950";

function toRows(resolved: ResolvedSettings): Rows {
  return Object.fromEntries(
    OVERRIDABLE_SETTINGS.map((name) => [name, { overridden: resolved.sources[name] === "conversation", text: String(resolved.settings[name]) }]),
  ) as Rows;
}

/** Overridden rows as values, the others as null (inherit): what the server's patch expects. */
// The rows hold what was typed; a value the form cannot check here (NaN for a
// non-number, a strategy name) is sent as is and refused by the server per field.
function toPatch(rows: Rows): OverridesPatch {
  const value = (name: OverridableSetting, text: string) => (isNumericOverride(name) ? (parseNumber(text) ?? Number.NaN) : text);
  return Object.fromEntries(
    OVERRIDABLE_SETTINGS.map((name) => [name, rows[name].overridden ? value(name, rows[name].text) : null]),
  ) as OverridesPatch;
}

function SourceBadge({ source }: { source: SettingSource }) {
  return <span className={`rounded px-1.5 py-px text-[11px] font-medium ${SOURCE_STYLE[source]}`}>{SOURCE_LABEL[source]}</span>;
}

/** The pre-emptive threshold bounds the auto threshold from below but is not overridable here: say its value and where it is set. */
function PreemptiveNote({ resolved }: { resolved: ResolvedSettings }) {
  const value = resolved.settings.preemptiveThreshold;
  const source = resolved.sources.preemptiveThreshold;
  return (
    <p data-testid="preemptive-threshold-note" className="text-[12px] text-neutral-600 dark:text-neutral-400">
      {SETTING_FIELDS.preemptiveThreshold.label}: <span className="font-mono">{value}</span> from {SOURCE_PLACE[source]}
      {value > 0 ? "; the auto threshold must be above it" : " (off)"}. Change it in{" "}
      <Link href="/settings" className="underline">
        Compression settings
      </Link>
      .
    </p>
  );
}

/** The settings this conversation runs with, where each comes from, and its own overrides. */
export function ConversationSettingsDialog({ conversationId }: { conversationId: string }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [resolved, setResolved] = useState<ResolvedSettings | null>(null);
  const [rows, setRows] = useState<Rows | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [status, setStatus] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [openedAt, setOpenedAt] = useState(0);

  const show = (next: ResolvedSettings) => {
    setResolved(next);
    setRows(toRows(next));
  };

  async function open() {
    setStatus(null);
    setErrors({});
    dialogRef.current?.showModal();
    setOpenedAt(Date.now());
    const result = await fetchRead("conversationSettings", conversationId);
    if (result.ok) show(result.data);
    else setStatus({ tone: "error", text: result.error.message });
  }

  async function save() {
    if (!rows || !resolved) return;
    const overridden = Object.fromEntries(OVERRIDABLE_SETTINGS.filter((name) => rows[name].overridden).map((name) => [name, rows[name].text]));
    const local = overrideErrors(overridden, resolved);
    if (Object.keys(local).length > 0) {
      setErrors(local);
      setStatus({ tone: "error", text: "Not saved: see the messages under the settings." });
      return;
    }
    const result = await updateConversationSettingsAction({ conversationId, ...toPatch(rows) });
    if (!result.ok) {
      const { preemptiveThreshold: conflict, ...fields } = result.error.fields ?? {};
      // The rule between the thresholds is reported on the one this dialog edits.
      setErrors(conflict ? { ...fields, threshold: [...(fields.threshold ?? []), ...conflict] } : fields);
      setStatus({ tone: "error", text: `Not saved: ${result.error.message}` });
      return;
    }
    setErrors({});
    show(result.data);
    setStatus({ tone: "ok", text: "Saved. The next turn uses these settings." });
    void useChat.getState().refreshMeter();
  }

  const setRow = (name: OverridableSetting, row: Partial<Row>) => setRows((current) => (current ? { ...current, [name]: { ...current[name], ...row } } : current));

  return (
    <>
      <Button
        data-testid="conversation-settings"
        title="This conversation's settings"
        onClick={() => void open()}
        className={`${PHONE_MENU_ROW} ${PHONE_MENU_PLAIN}`}
      >
        <SlidersIcon className="size-3.5" /> <HeaderLabel>Settings</HeaderLabel>
      </Button>
      <Dialog
        dialogRef={dialogRef}
        testId="conversation-settings-dialog"
        width="w-[min(44rem,calc(100vw-2rem))]"
        title="Settings of this conversation"
      >
        {resolved && rows ? (
          <form
            className="space-y-3 p-4"
            noValidate
            onSubmit={submitWith(save)}
          >
            <p className="text-[12px] text-neutral-500">
              Defaults, then your settings, then this conversation&apos;s overrides: the last one set wins.
            </p>
            <ul className="divide-y divide-neutral-100 dark:divide-neutral-800">
              {OVERRIDABLE_SETTINGS.map((name) => (
                <li key={name} className="grid grid-cols-[11rem_1fr] items-start gap-3 py-2" data-testid={`override-${name}`} data-source={resolved.sources[name]}>
                  <div className="space-y-1">
                    <p className="text-[12.5px] font-medium">{SETTING_FIELDS[name].label}</p>
                    <SourceBadge source={resolved.sources[name]} />
                  </div>
                  <div className="space-y-1">
                    <label className="flex items-center gap-2 text-[12px]">
                      <input
                        type="checkbox"
                        checked={rows[name].overridden}
                        onChange={(event) => setRow(name, { overridden: event.target.checked })}
                        data-testid={`override-${name}-on`}
                      />
                      Override for this conversation
                    </label>
                    {name === "strategy" || name === "recallMode" ? (
                      <select className={INPUT} disabled={!rows[name].overridden} value={rows[name].text} onChange={(event) => setRow(name, { text: event.target.value })} aria-label={SETTING_FIELDS[name].label}>
                        {(name === "strategy" ? STRATEGIES : RECALL_MODES).map((option) => (
                          <option key={option} value={option}>
                            {option}
                          </option>
                        ))}
                      </select>
                    ) : name === "customPrompt" ? (
                      <textarea className={`${INPUT} h-16 py-1`} disabled={!rows[name].overridden} value={rows[name].text} onChange={(event) => setRow(name, { text: event.target.value })} aria-label={SETTING_FIELDS[name].label} />
                    ) : (
                      <input className={INPUT} disabled={!rows[name].overridden} value={rows[name].text} onChange={(event) => setRow(name, { text: event.target.value })} aria-label={SETTING_FIELDS[name].label} data-testid={`override-${name}-value`} />
                    )}
                    {errors[name]?.map((message) => (
                      <p key={message} id={`override-${name}-error`} data-testid={`override-${name}-error`} className="text-[12px] text-red-700 dark:text-red-400">
                        {message}
                      </p>
                    ))}
                    {name === "threshold" ? <PreemptiveNote resolved={resolved} /> : null}
                  </div>
                </li>
              ))}
            </ul>
            <details className="text-[12px]">
              <summary className="cursor-pointer text-neutral-600 dark:text-neutral-400">Every value that applies</summary>
              <ul className="mt-2 space-y-1" data-testid="applied-settings">
                {Object.entries(resolved.settings).map(([name, value]) => (
                  <li key={name} className="flex items-center gap-2">
                    <span className="w-48 truncate text-neutral-600 dark:text-neutral-400">{SETTING_FIELDS[name as SettingName].label}</span>
                    <code className="min-w-0 flex-1 truncate font-mono">{typeof value === "string" ? value || "—" : JSON.stringify(value)}</code>
                    <SourceBadge source={resolved.sources[name as SettingName]} />
                  </li>
                ))}
              </ul>
              {resolved.ignored.length ? (
                <p className="mt-2 text-amber-700 dark:text-amber-400">
                  Left out because they conflict with other values or no longer fit a limit: {resolved.ignored.map((entry) => `${entry.name} (${SOURCE_LABEL[entry.source]})`).join(", ")}.
                </p>
              ) : null}
            </details>
            <div className="flex items-center justify-end gap-3">
              {status ? (
                <p role={status.tone === "error" ? "alert" : "status"} data-testid="conversation-settings-status" className={`mr-auto text-[12.5px] ${status.tone === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}`}>
                  {status.text}
                </p>
              ) : null}
              <Button type="submit" variant="primary" data-testid="conversation-settings-save">
                Save
              </Button>
            </div>
          </form>
        ) : (
          <p className="p-4 text-[12.5px] text-neutral-500">{status?.text ?? "Loading…"}</p>
        )}
        <AllowedTools conversationId={conversationId} openedAt={openedAt} />
      </Dialog>
    </>
  );
}
