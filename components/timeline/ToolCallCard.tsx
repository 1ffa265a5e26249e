"use client";
import { useId, useMemo } from "react";
import { formatCount, formatDuration } from "@/components/format";
import type { ToolCall } from "@/lib/compression/types";
import { dataAttributes } from "../ui/data-attributes";
import { ChevronIcon, PinIcon, WrenchIcon } from "../ui/icons";
import { CopyButton } from "../ui/CopyButton";
import { ClippedText } from "./ClippedText";
import { partsPreview, resultParts, storedParts } from "./mcp-content";
import { PinToggle } from "./PinToggle";
import { formatArguments, serverLabel, STATUS_LABELS, type ToolCallStatus, type ToolMessage } from "./tool-cards";
import { useOpen } from "./tool-card-store";
import { ToolResult } from "./ToolResult";

const STATUS_STYLES: Record<ToolCallStatus, string> = {
  awaiting_approval: "bg-violet-100 text-violet-900 dark:bg-violet-950 dark:text-violet-300",
  running: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
  done: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  failed: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
  denied: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300",
  no_result: "bg-neutral-200 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300",
};

const SECTION_LABEL = "mb-0.5 text-[11px] font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-400";

function StatusBadge({ status }: { status: ToolCallStatus }) {
  return (
    <span data-testid="tool-status" className={`inline-flex items-center gap-1 rounded px-1.5 py-px text-[10.5px] font-semibold ${STATUS_STYLES[status]}`}>
      {status === "running" ? <span className="animate-strata-pulse size-1.5 rounded-full bg-sky-500" aria-hidden="true" /> : null}
      {STATUS_LABELS[status]}
    </span>
  );
}

type ToolCallCardProps = {
  /** The call; null for a result whose call is not loaded here (it sits in an earlier page or inside a summary). */
  call: ToolCall | null;
  result: ToolMessage | undefined;
  status: ToolCallStatus;
  /** Identifies the card's open state across remounts: the reply's message id and the call id. */
  cardKey: string;
  /**
   * The result is drawn inside its call's card rather than as a message of its own: the card
   * then carries the result message's number, so that links and search hits to it land here.
   */
  holdsResult: boolean;
};

/** A tool call and its result: one line while closed, the arguments and the result when opened. */
export function ToolCallCard({ call, result, status, cardKey, holdsResult }: ToolCallCardProps) {
  const [open, toggle] = useOpen(cardKey);
  const bodyId = useId();
  const name = call?.name ?? result?.toolName ?? "tool";
  const server = serverLabel(result);
  const duration = result?.toolDurationMs;
  // A tool server's blocks when it sent more than text; else the text (which may itself be a block list).
  const parts = useMemo(() => (result ? (result.toolContent ? storedParts(result.toolContent) : resultParts(result.content)) : null), [result]);
  const args = useMemo(() => (call ? formatArguments(call.arguments) : null), [call]);
  const anchor = holdsResult && result ? { testid: "message", role: "tool", seq: result.seq, pinned: result.pinned || undefined } : {};

  return (
    <section
      {...dataAttributes({ ...anchor })}
      aria-label={`Tool call ${name}: ${STATUS_LABELS[status]}`}
      className={`min-w-0 rounded-md border bg-white dark:bg-neutral-950 ${
        result?.pinned ? "border-amber-400 dark:border-amber-500" : "border-neutral-200 dark:border-neutral-800"
      }`}
    >
      <div data-testid="tool-card" {...dataAttributes({ status, tool: name, open })}>
        <button
          type="button"
          data-testid="tool-card-toggle"
          aria-expanded={open}
          aria-controls={open ? bodyId : undefined}
          onClick={toggle}
          className="flex w-full min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 rounded-md px-2 py-1.5 text-left text-[12px] hover:bg-neutral-50 focus-visible:outline-2 focus-visible:outline-sky-500 dark:hover:bg-neutral-900"
        >
          <ChevronIcon className={`size-3 shrink-0 text-neutral-500 transition-transform ${open ? "rotate-90" : ""}`} />
          <WrenchIcon className="size-3 shrink-0 text-neutral-500" />
          <span data-testid="tool-name" className="min-w-0 font-mono font-semibold break-all text-neutral-900 dark:text-neutral-100">
            {name}
          </span>
          {server ? (
            <span data-testid="tool-server" className="text-neutral-600 dark:text-neutral-400">
              {server}
            </span>
          ) : null}
          <StatusBadge status={status} />
          {duration != null ? (
            <span data-testid="tool-duration" className="font-mono text-neutral-600 dark:text-neutral-400" title="How long the call took">
              {formatDuration(duration)}
            </span>
          ) : null}
          {result ? (
            <span data-testid="tool-result-tokens" className="font-mono text-neutral-600 dark:text-neutral-400" title="Size of the result in tokens">
              {formatCount(result.tokenCount)} tok
            </span>
          ) : null}
          {result?.pinned ? <PinIcon className="size-3 text-amber-600 dark:text-amber-400" /> : null}
        </button>
        {!open && parts ? (
          <p data-testid="tool-result-preview" className="truncate px-2 pb-1.5 pl-9 font-mono text-[11.5px] text-neutral-600 dark:text-neutral-400">
            {partsPreview(parts)}
          </p>
        ) : null}
        {open ? (
          <div id={bodyId} data-testid="tool-card-body" className="space-y-2 border-t border-neutral-200 px-2 py-2 dark:border-neutral-800">
            <div>
              <h4 className={SECTION_LABEL}>Arguments</h4>
              {args === null ? (
                <p className="text-[12px] text-neutral-600 dark:text-neutral-400">The call is in an earlier part of the conversation.</p>
              ) : args.empty ? (
                <p className="text-[12px] text-neutral-600 dark:text-neutral-400">none</p>
              ) : (
                <>
                  {args.json ? null : <p className="text-[11.5px] text-amber-800 dark:text-amber-300">Not valid JSON; shown as the model sent it.</p>}
                  <ClippedText text={args.text} openKey={`${cardKey}:args`} testId="tool-arguments" />
                </>
              )}
            </div>
            <div>
              <div className="mb-0.5 flex flex-wrap items-center gap-2">
                <h4 className={SECTION_LABEL}>Result</h4>
                {result ? (
                  <>
                    <a href={`#m-${result.seq}`} data-testid="tool-result-link" className="font-mono text-[11.5px] text-neutral-600 hover:underline dark:text-neutral-400">
                      #{result.seq}
                    </a>
                    <CopyButton text={result.content} label="Copy the result" testId="copy-tool-result" />
                    <PinToggle message={result} />
                  </>
                ) : null}
              </div>
              {parts && result ? (
                <ToolResult parts={parts} openKey={`${cardKey}:result`} />
              ) : (
                <p className="text-[12px] text-neutral-600 dark:text-neutral-400">
                  {status === "running"
                    ? "Waiting for the tool…"
                    : status === "awaiting_approval"
                      ? "Waiting for your answer: approve or deny the call below the conversation."
                      : "The tool gave no result (the turn ended before it ran)."}
                </p>
              )}
            </div>
          </div>
        ) : null}
      </div>
    </section>
  );
}
