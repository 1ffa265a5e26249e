import type { CompactionView } from "@/lib/views";
import type { SummarySections } from "@/lib/compression/types";
import { plural } from "@/lib/client/format";
import { Markdown } from "../ui/Markdown";

const SECTION_TITLES: [keyof SummarySections, string][] = [
  ["goals", "Goals"],
  ["decisions", "Decisions"],
  ["completed", "Completed"],
  ["openItems", "Open items"],
  ["facts", "Facts"],
];

function StructuredSummary({ sections }: { sections: SummarySections }) {
  const filled = SECTION_TITLES.filter(([key]) => sections[key].length > 0);
  if (filled.length === 0) return <p className="text-neutral-500 italic">(empty structured summary)</p>;
  return (
    <div className="grid gap-x-6 gap-y-2 sm:grid-cols-2">
      {filled.map(([key, title]) => (
        <section key={key}>
          <h4 className="text-[11px] font-semibold tracking-wide text-neutral-500 uppercase">{title}</h4>
          <ul className="mt-0.5 list-disc space-y-0.5 pl-4 text-[13px]">
            {sections[key].map((entry, index) => (
              <li key={index}>{entry}</li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** What the model sees in place of the covered messages. */
export function CompactionSummary({ compaction }: { compaction: CompactionView }) {
  return (
    <div data-testid="compaction-summary" className="text-[13px]">
      {compaction.kind === "truncation" ? (
        <p className="text-neutral-700 dark:text-neutral-300">
          {plural(compaction.coveredMessageCount, "message")} dropped from the model&apos;s view to fit the window — still here.
        </p>
      ) : compaction.sections ? (
        <StructuredSummary sections={compaction.sections} />
      ) : (
        <Markdown text={compaction.summary} breaks />
      )}
      {compaction.instructions ? (
        <p className="mt-1.5 text-[11.5px] text-neutral-500">
          Instructions: <span className="italic">{compaction.instructions}</span>
        </p>
      ) : null}
    </div>
  );
}
