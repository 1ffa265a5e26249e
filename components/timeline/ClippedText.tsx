"use client";
import { useMemo } from "react";
import { formatCount, plural } from "@/components/format";
import { clipText } from "./tool-cards";
import { useOpen } from "./tool-card-store";

const PRE =
  "overflow-x-auto rounded-md border border-neutral-200 bg-neutral-50 p-2 font-mono text-[12px] leading-snug whitespace-pre-wrap break-words dark:border-neutral-800 dark:bg-neutral-900";

/** Preformatted text; a long one shows its first lines until the reader asks for all of it. */
export function ClippedText({ text, openKey, testId }: { text: string; openKey: string; testId?: string }) {
  const clip = useMemo(() => clipText(text), [text]);
  const [open, toggle] = useOpen(openKey);
  const whole = !clip || open;
  return (
    <div>
      <pre data-testid={testId} data-clipped={whole ? undefined : "true"} className={PRE}>
        {whole ? text : `${clip.head}…`}
      </pre>
      {clip ? (
        <button
          type="button"
          data-testid="show-all"
          aria-expanded={open}
          onClick={toggle}
          className="mt-0.5 rounded px-1 text-[11.5px] text-sky-700 underline-offset-2 hover:underline dark:text-sky-400"
        >
          {open
            ? "Show less"
            : `Show all (${clip.hiddenLines > 0 ? `${plural(clip.hiddenLines, "more line")}, ` : ""}${formatCount(clip.hiddenChars)} more characters)`}
        </button>
      ) : null}
    </div>
  );
}
