"use client";
import { useId, useState } from "react";
import type { CompactionView } from "@/lib/views";
import type { SummarySections } from "@/lib/compression/types";
import { plural } from "@/components/format";
import { CitedText, MessageLinkContext } from "../ui/citations";
import { Markdown } from "../ui/Markdown";
import { jumpToMessage } from "./jump";
import { SECTION_LABELS } from "./summary-preview";

function StructuredSummary({ sections }: { sections: SummarySections }) {
  const filled = SECTION_LABELS.filter(([key]) => sections[key].length > 0);
  if (filled.length === 0) return <p className="text-neutral-500 italic">(empty structured summary)</p>;
  return (
    <div className="grid gap-x-6 gap-y-2 sm:grid-cols-2">
      {filled.map(([key, title]) => (
        <section key={key}>
          <h4 className="text-[11px] font-semibold tracking-wide text-neutral-500 uppercase">{title}</h4>
          <ul className="mt-0.5 list-disc space-y-0.5 pl-4 text-[13px]">
            {sections[key].map((entry, index) => (
              <li key={index}>
                <CitedText text={entry} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function FullSummary({ compaction }: { compaction: CompactionView }) {
  return compaction.sections ? <StructuredSummary sections={compaction.sections} /> : <Markdown text={compaction.summary} breaks citations />;
}

/**
 * The whole summary, on request only: the block's header already says what it is about
 * (its title), and a first line under it repeated the title, or on many summarizers
 * read "Summary of the conversation so far." on every block (issue 20).
 */
function Summary({ compaction }: { compaction: CompactionView }) {
  const [open, setOpen] = useState(false);
  const fullId = useId();
  return (
    <>
      {open ? (
        <div id={fullId}>
          <FullSummary compaction={compaction} />
        </div>
      ) : null}
      <button
        type="button"
        data-testid="compaction-summary-more"
        aria-expanded={open}
        aria-controls={open ? fullId : undefined}
        onClick={() => setOpen((value) => !value)}
        className="mt-0.5 text-[11.5px] text-sky-700 underline-offset-2 hover:underline dark:text-sky-400"
      >
        {open ? "Hide the summary" : "Show the summary"}
      </button>
    </>
  );
}

/** A cite opens the original where it sits in the tree ("Go to #n"), whatever levels hide it. */
const openCited = (seq: number) => void jumpToMessage(seq);

/** What the model sees in place of the covered messages, shown when asked for. */
export function CompactionSummary({ compaction }: { compaction: CompactionView }) {
  return (
    <MessageLinkContext value={openCited}>
      <div data-testid="compaction-summary" className="text-[13px]">
        {compaction.kind === "truncation" ? (
          <p className="text-neutral-700 dark:text-neutral-300">
            {plural(compaction.coveredMessageCount, "message")} dropped from the model&apos;s view to fit the window — still here.
          </p>
        ) : (
          <Summary compaction={compaction} />
        )}
        {compaction.instructions ? (
          <p className="mt-1.5 text-[11.5px] text-neutral-500">
            Instructions: <span className="italic">{compaction.instructions}</span>
          </p>
        ) : null}
      </div>
    </MessageLinkContext>
  );
}
