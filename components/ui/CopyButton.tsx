"use client";
// Copies a text to the clipboard and says so for a moment.
import { useEffect, useState } from "react";
import { CheckIcon, CopyIcon } from "./icons";

type CopyButtonProps = {
  text: string | (() => string);
  label: string;
  className?: string;
  testId?: string;
  /** Shows "Copy" / "Copied" beside the icon, where the copy is the point of the place (a token shown once). */
  withText?: boolean;
};

export function CopyButton({ text, label, className = "", testId = "copy-button", withText = false }: CopyButtonProps) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      data-testid={testId}
      data-state={state}
      aria-label={state === "copied" ? "Copied" : label}
      title={state === "failed" ? "The browser refused the clipboard" : label}
      onClick={() => {
        const value = typeof text === "function" ? text() : text;
        navigator.clipboard.writeText(value).then(
          () => setState("copied"),
          () => setState("failed"),
        );
      }}
      className={`rounded p-1 ${withText ? "inline-flex items-center gap-1 text-[12px] font-medium text-neutral-700 dark:text-neutral-300" : "text-neutral-400"} hover:bg-neutral-200 hover:text-neutral-800 dark:hover:bg-neutral-800 dark:hover:text-neutral-200 ${className}`}
    >
      {state === "copied" ? <CheckIcon /> : <CopyIcon />}
      {withText ? (
        <span aria-live="polite" data-testid={`${testId}-text`}>
          {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
        </span>
      ) : (
        <span aria-live="polite" className="sr-only">
          {state === "copied" ? "Copied" : ""}
        </span>
      )}
    </button>
  );
}
